package apply

import (
	"fmt"
	"strings"

	"github.com/agentkit/charter/core"
)

// All selects every known agent.
const All = "all"

// Agents lists the agent names charter knows.
func Agents() []string {
	var out []string
	for _, a := range core.Agents() {
		out = append(out, a.Name)
	}
	return out
}

// agentFlag is how a person chooses agents on the command line.
func agentFlag() string { return "--agent " + strings.Join(append(Agents(), All), "|") }

// selectAgents resolves names to agents in canonical order. No names means
// the default: the active profile's provider, else every agent whose
// directory exists.
func selectAgents(sys *core.System, names []string) ([]core.Agent, error) {
	if len(names) > 0 {
		want := map[string]bool{}
		for _, n := range names {
			n = strings.ToLower(strings.TrimSpace(n))
			if _, ok := core.LookupAgent(n); !ok && n != All {
				return nil, &core.UsageError{Kind: core.CodeUnknownAgent,
					Msg: fmt.Sprintf("unknown agent %q: choose %s", n, strings.Join(append(Agents(), All), ", "))}
			}
			want[n] = true
		}
		var out []core.Agent
		for _, a := range core.Agents() {
			if want[a.Name] || want[All] {
				out = append(out, a)
			}
		}
		return out, nil
	}
	if p := sys.ActiveProfile(); p.Active {
		a, ok := core.LookupAgent(*p.Provider)
		if !ok {
			return nil, &core.UsageError{Kind: core.CodeNoAgent,
				Msg: fmt.Sprintf("no agent instruction file is known for provider %q of the profile %s: choose an agent with %s", *p.Provider, p.Name(), agentFlag())}
		}
		return []core.Agent{a}, nil
	}
	var out []core.Agent
	var dirs []string
	for _, a := range core.Agents() {
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
		return nil, &core.UsageError{Kind: core.CodeNoAgent,
			Msg: fmt.Sprintf("no agent directory found (%s): choose an agent with %s", strings.Join(dirs, ", "), agentFlag())}
	}
	return out, nil
}

// agentDir is where the file goes: inside a profile, always the profile's
// config directory, so a profile's settings never land in another scope's
// file; outside one, the agent's own variable, else its default below $HOME.
func agentDir(sys *core.System, a core.Agent) (string, error) {
	if dir, ok := sys.ProfileDir(); ok {
		return dir, nil
	}
	if v := sys.Getenv(a.DirVar); strings.TrimSpace(v) != "" {
		dir, err := sys.Normalize(v)
		if err != nil {
			return "", fmt.Errorf("%s: %w", a.DirVar, err)
		}
		return dir, nil
	}
	home, err := sys.Home()
	if err != nil {
		return "", err
	}
	return sys.Paths.Join(home, a.DefaultDir), nil
}
