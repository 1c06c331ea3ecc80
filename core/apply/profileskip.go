package apply

import (
	"fmt"
	"slices"
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/agents"
	"github.com/agentkit/charter/core/profile"
)

// StateSkipped is an agent a user-level apply inside a profile leaves
// alone: its files live outside the profile (SPEC §12 decisions of
// 2026-11-27, "Levels inside a profile").
const StateSkipped = "skipped"

// Inside a profile, a user-level apply writes for the agents the profile
// serves, into its folders. Asked for several agents (`--agent all`, a
// list), it reports each other agent skipped, with the reason and the
// command that reaches it, and writes nothing for it: Codex's ~/.codex is
// no Claude profile's folder. One agent named alone is served by its own
// variable (System.ServeAgent), so it is not skipped.
func profileSkips(sys *core.System, sel []agents.Agent, names []string) ([]agents.Agent, []Result) {
	p := profile.Active(sys)
	if !p.Active || profile.ViaHome(sys) || (len(names) == 1 && !strings.EqualFold(strings.TrimSpace(names[0]), All)) {
		// A profile entered through HOME holds every agent's folder.
		return sel, nil
	}
	var keep []agents.Agent
	var out []Result
	for _, a := range sys.AgentTable.All() {
		named := slices.ContainsFunc(sel, func(s agents.Agent) bool { return s.Name == a.Name })
		switch {
		case a.Provider == *p.Provider && named:
			keep = append(keep, a)
		case named || slices.ContainsFunc(names, func(n string) bool { return strings.EqualFold(strings.TrimSpace(n), All) }):
			out = append(out, Result{Agent: a.Name, Level: LevelUser, State: StateSkipped, Reason: skipReason(sys, a, p)})
		}
	}
	return keep, out
}

func skipReason(sys *core.System, a agents.Agent, p core.Profile) string {
	if a.UserFile == "" {
		return fmt.Sprintf("%s keeps no user-level files charter writes; in a project: `charter apply --project --agent %s`", a.Name, a.Name)
	}
	dir, err := profile.AgentDir(sys, a)
	if err != nil {
		dir = a.DefaultDir
	}
	return fmt.Sprintf("the active profile %s serves %s, and %s's files (%s) lie outside it: run `charter apply --agent %s`, which uses %s's own profile or folder",
		p.Name(), *p.Provider, a.Name, dir, a.Name, a.Name)
}

// MixedProfiles refuses a user-level apply that names no agent while the
// variables name profiles of different providers (a Codex session started
// inside a Claude profile inherits CLAUDE_CONFIG_DIR): charter cannot tell
// which agent asks, and guessing writes one profile's files from another.
func MixedProfiles(sys *core.System, names []string) error {
	if len(names) > 0 {
		return nil
	}
	m := profile.Mixed(sys)
	if len(m) == 0 {
		return nil
	}
	return core.Errorf(core.CodeUsage, "the variables name profiles of different providers (%s), and nothing says which agent is asking: name it with --agent (`charter apply --agent %s`)",
		core.MixedText(m), m[0].Provider)
}

// sharedUserFiles leaves out of sel each agent whose user-level file is
// one an agent before it writes (Antigravity and Gemini CLI both read
// ~/.gemini/GEMINI.md): one block there, reported with the reason when
// the agent was asked for by name (or all).
func sharedUserFiles(sys *core.System, sel []agents.Agent, named bool) ([]agents.Agent, []Result) {
	var keep []agents.Agent
	var out []Result
	owner := map[string]string{}
	for _, a := range sel {
		p, err := profile.UserPath(sys, a)
		if err == nil && p != "" && owner[p] != "" {
			if !named {
				continue
			}
			out = append(out, Result{Agent: a.Name, Level: LevelUser, Path: p, State: StateSkipped,
				Reason: fmt.Sprintf("%s reads %s, where charter writes one block, for %s", a.Name, p, owner[p])})
			continue
		}
		if err == nil && p != "" {
			owner[p] = a.Name
		}
		keep = append(keep, a)
	}
	return keep, out
}
