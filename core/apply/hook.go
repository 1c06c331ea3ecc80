package apply

import (
	"fmt"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/fsys"
	"github.com/agentkit/charter/core/gates"
	"github.com/agentkit/charter/core/loaded"
	"github.com/agentkit/charter/core/settings"
)

// HookFile is Claude Code's settings file, beside its CLAUDE.md; apply
// keeps charter's Stop hook entry there (SPEC §10).
const HookFile = "settings.json"

// hookTarget is the agent's hook file at path (Claude's settings.json,
// Codex's hooks.json) with kind's Stop hook entry present while a gate is
// required, absent when none is. Every target of such an agent gets one,
// wherever its directory is. The entry's timeout follows gates.timeout, so
// a changed gates.timeout makes it outdated.
//
// In Claude's file the InstructionsLoaded entry (core/loaded) is present
// while charter projects a rule for Claude at the level (loadedHook true),
// absent when it projects none; nil leaves it as it is (a plan without the
// content).
func hookTarget(sys *core.System, kind gates.HookKind, level, path string, snap *settings.Snapshot, loadedHook *bool) (Target, error) {
	cfg := gates.Declared(snap.Values, "")
	present := len(cfg.Required()) > 0
	if kind != gates.ClaudeStop {
		loadedHook = nil
	}
	var hook, onLoad StopHook
	if present || (loadedHook != nil && *loadedHook) {
		exe, err := hookProgram(sys, level)
		if err != nil {
			return Target{}, err
		}
		root := ""
		if snap.Scope.Kind == core.ScopeHost {
			root = snap.Scope.Root.Path
		}
		hook = StopHook{Command: kind.Command(exe, root), Timeout: gates.HookTimeout(cfg.Timeout)}
		onLoad = StopHook{Command: loaded.HookCommand(exe, root), Timeout: loaded.HookTimeout}
	}
	t := Target{Agent: kind.Agent(), Level: level, Path: path, kind: fsys.KindAgentJSON, hook: kind, isHook: true}
	t.edit = func(old []byte) ([][]byte, error) {
		data, err := EnsureStopHook(old, kind, hook, present)
		if err == nil && loadedHook != nil {
			data, err = EnsureEventHook(data, loaded.HookEvent, loaded.HookSuffix, onLoad, *loadedHook)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w; fix the file or remove it, then run `charter apply` again", t.Path, err)
		}
		return whole(data), nil
	}
	return t, nil // PlanRequest reads it with the other targets
}
