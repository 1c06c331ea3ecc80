package apply

import (
	"fmt"
	"slices"
	"strings"

	"github.com/agentkit/charter/core"
)

// agent is a coding agent charter writes instructions for.
type agent struct {
	name       string // as in --agent, and as the companion names its provider
	file       string // the instruction file the agent reads
	dirVar     string // the agent's own config-directory variable
	defaultDir string // below $HOME when dirVar is unset
}

// known lists the agents in their canonical order.
var known = []agent{
	{name: "claude", file: "CLAUDE.md", dirVar: "CLAUDE_CONFIG_DIR", defaultDir: ".claude"},
	{name: "codex", file: "AGENTS.md", dirVar: "CODEX_HOME", defaultDir: ".codex"},
}

// All selects every known agent.
const All = "all"

// Agents lists the agent names charter knows.
func Agents() []string {
	out := make([]string, len(known))
	for i, a := range known {
		out[i] = a.name
	}
	return out
}

func lookupAgent(name string) (agent, bool) {
	i := slices.IndexFunc(known, func(a agent) bool { return a.name == name })
	if i < 0 {
		return agent{}, false
	}
	return known[i], true
}

const agentFlag = "--agent claude|codex|all"

// selectAgents resolves names to agents in canonical order. No names means
// the default: the active profile's provider, else every agent whose
// directory exists.
func selectAgents(sys *core.System, names []string) ([]agent, error) {
	if len(names) > 0 {
		want := map[string]bool{}
		for _, n := range names {
			n = strings.ToLower(strings.TrimSpace(n))
			if _, ok := lookupAgent(n); !ok && n != All {
				return nil, &core.UsageError{Code: "unknown_agent",
					Msg: fmt.Sprintf("unknown agent %q: choose %s", n, strings.Join(append(Agents(), All), ", "))}
			}
			want[n] = true
		}
		var out []agent
		for _, a := range known {
			if want[a.name] || want[All] {
				out = append(out, a)
			}
		}
		return out, nil
	}
	if p := sys.ActiveProfile(); p.Active {
		a, ok := lookupAgent(*p.Provider)
		if !ok {
			return nil, &core.UsageError{Code: "no_agent",
				Msg: fmt.Sprintf("no agent instruction file is known for provider %q of the profile %s: choose an agent with %s", *p.Provider, p.Name(), agentFlag)}
		}
		return []agent{a}, nil
	}
	var out []agent
	var dirs []string
	for _, a := range known {
		dir, err := agentDir(sys, a)
		if err != nil {
			return nil, err
		}
		if fi, err := sys.Fs.Stat(dir); err == nil && fi.IsDir() {
			out = append(out, a)
		}
		dirs = append(dirs, dir)
	}
	if len(out) == 0 {
		return nil, &core.UsageError{Code: "no_agent",
			Msg: fmt.Sprintf("no agent directory found (%s): choose an agent with %s", strings.Join(dirs, ", "), agentFlag)}
	}
	return out, nil
}

// agentDir is where the file goes: inside a profile, always the profile's
// config directory, so a profile's settings never land in another scope's
// file; outside one, the agent's own variable, else its default below $HOME.
func agentDir(sys *core.System, a agent) (string, error) {
	if dir, ok := sys.ProfileDir(); ok {
		return dir, nil
	}
	if v := sys.Getenv(a.dirVar); strings.TrimSpace(v) != "" {
		dir, err := sys.Normalize(v)
		if err != nil {
			return "", fmt.Errorf("%s: %w", a.dirVar, err)
		}
		return dir, nil
	}
	home, err := sys.Home()
	if err != nil {
		return "", err
	}
	return sys.Paths.Join(home, a.defaultDir), nil
}
