package apply

import (
	"bytes"
	"context"
	"fmt"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/agents"
	"github.com/agentkit/charter/core/fsys"
	"github.com/agentkit/charter/core/gates"
	"github.com/agentkit/charter/core/loaded"
	"github.com/agentkit/charter/core/profile"
	"github.com/agentkit/charter/core/projection"
)

// PlanUninstall is PlanRemoval with every file the level's record names:
// the projection of nothing, which deletes each recorded file (a file
// edited since is a conflict, or with force left where it is). record is
// the scope's projection.json at user level; the project's lock is found
// by itself.
func PlanUninstall(ctx context.Context, sys *core.System, proj *core.Project, record string, force bool) (*Full, error) {
	targets, err := PlanRemoval(sys, proj)
	if err != nil {
		return nil, err
	}
	targets, book, err := govRemoval(sys, proj, record, targets)
	if err != nil {
		return nil, err
	}
	req := projection.Request{RecordPath: record, Force: force, Table: sys.AgentTable.All()}
	if proj != nil {
		req.Root, req.RecordPath = proj.Dir, projectFile(sys, proj.Dir, ".charter/projection.lock")
	} else {
		req.Bases = userBases(sys)
	}
	plan, err := projection.Make(ctx, sys, req)
	if err != nil {
		return nil, err
	}
	return &Full{Targets: targets, Content: plan, book: book}, nil
}

// PlanRemoval plans taking out of the agents' files everything charter
// inserted at a level (SPEC §16, `charter uninstall`): its block from each
// instruction file (a file charter owns whole, or one left empty, goes),
// its hook entries from Claude's settings.json and Codex's hooks.json, and
// at project level its entry in .mcp.json. Every other byte stays. A file
// charter's entry alone made goes when that entry is taken out. proj nil
// is the user level. Only the targets that change are returned, each
// planned (read and checked) before anything is written.
func PlanRemoval(sys *core.System, proj *core.Project) ([]Target, error) {
	level, root := LevelUser, ""
	if proj != nil {
		level, root = LevelProject, proj.Dir
	}
	var out []Target
	seen := map[string]bool{}
	add := func(t Target) {
		if t.Path != "" && !seen[t.Path] {
			seen[t.Path] = true
			out = append(out, t)
		}
	}
	for _, a := range sys.AgentTable.All() {
		files, err := blockFiles(sys, a, root)
		if err != nil {
			return nil, err
		}
		for p, owned := range files {
			if !holdsMarker(sys, root, p) {
				continue
			}
			path, owned := p, owned
			add(Target{Agent: a.Name, Level: level, Path: path, unplace: true,
				edit: func(old []byte) ([][]byte, error) { return withoutBlock(path, old, owned) }})
		}
		h, ok := stopHookOf(a.Name)
		if !ok {
			continue
		}
		dir := ""
		if root != "" {
			dir = sys.Paths.Join(root, h.projectDir)
		} else if up, err := profile.UserPath(sys, a); err == nil && up != "" {
			dir = sys.Paths.Dir(up)
		}
		if dir != "" {
			add(hookRemoval(a.Name, level, sys.Paths.Join(dir, h.file), h.kind))
		}
	}
	if root != "" {
		path := sys.Paths.Join(root, MCPFile)
		add(Target{Agent: MCPTarget, Level: level, Path: path, kind: fsys.KindAgentJSON, unplace: true,
			edit: func(old []byte) ([][]byte, error) {
				data, err := RemoveMCPJSON(old)
				if err != nil {
					return nil, fmt.Errorf("%s: %w; fix the file or take charter's entry out by hand, then run `charter uninstall` again", path, err)
				}
				return emptiedOrWhole(old, data), nil
			}})
		confineProject(sys, root, out)
	}
	var changes []Target
	for i := range out {
		if _, err := sys.Fs.Stat(out[i].Path); err != nil {
			continue // nothing there to take anything out of
		}
		if err := out[i].plan(sys, false); err != nil {
			return nil, err
		}
		if !out[i].current {
			changes = append(changes, out[i])
		}
	}
	return changes, nil
}

// blockFiles are the files a's block may be in at the level, each with
// whether charter owns it whole (then it goes with the block).
func blockFiles(sys *core.System, a agents.Agent, root string) (map[string]bool, error) {
	out := map[string]bool{}
	if root == "" {
		p, err := profile.UserPath(sys, a)
		if err != nil || p == "" {
			return out, err
		}
		out[p] = a.FormatAt(LevelUser) == agents.FormatRules
		return out, nil
	}
	for _, rel := range candidates(a) {
		out[projectFile(sys, root, rel)] = rel == a.Via || a.Format == agents.FormatRules
	}
	return out, nil
}

// hookRemoval takes charter's Stop entry (and Claude's InstructionsLoaded
// entry) out of an agent's hook file.
func hookRemoval(agent, level, path string, kind gates.HookKind) Target {
	t := Target{Agent: agent, Level: level, Path: path, kind: fsys.KindAgentJSON, hook: kind, isHook: true, unplace: true}
	t.edit = func(old []byte) ([][]byte, error) {
		data, err := EnsureStopHook(old, kind, StopHook{}, false)
		if err == nil && kind == gates.ClaudeStop {
			data, err = EnsureEventHook(data, loaded.HookEvent, loaded.HookSuffix, StopHook{}, false)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w; fix the file or take charter's entries out by hand, then run `charter uninstall` again", path, err)
		}
		return emptiedOrWhole(old, data), nil
	}
	return t
}

// emptiedOrWhole is no file when taking charter's entries out of old left
// an empty object: the file held nothing else, so charter's entry made it
// (an empty object means nothing to the agent). Else data as it is.
func emptiedOrWhole(old, data []byte) [][]byte {
	if !bytes.Equal(old, data) && emptyObject(data) {
		return nil
	}
	return whole(data)
}

func emptyObject(data []byte) bool {
	return string(bytes.TrimSpace(bytes.TrimPrefix(data, bom))) == "{}"
}
