package doctor

import (
	"fmt"

	"github.com/agentkit/charter/core/gates"
)

// gateCommands: a required tests gate without a command passes by doing
// nothing. Where the project's files give its test command away, that is a
// warning whose fix is the exact line that sets it; with nothing to
// suggest, `charter gate run` already says the gate was skipped.
func gateCommands(r *run) []Check {
	const name, label = "gates", "Gates"
	if r.scopeErr != nil {
		return nil
	}
	snap, err := r.store.Read()
	if err != nil {
		return nil // a file that cannot be read has its own line
	}
	dir, err := r.Session.GateDir()
	if err != nil {
		return nil
	}
	setup, err := gates.Load(r.Sys, snap, dir)
	if err != nil {
		return nil // the trust file has its own line
	}
	var out []Check
	for _, u := range setup.Config.Unconfigured() {
		if u.Suggested == nil {
			continue
		}
		s := u.Suggested
		out = append(out, warn(name, label,
			fmt.Sprintf("%s is required but %s is empty, so `charter gate run` skips it and the agent's stop is never blocked on it; %s suggests %q",
				u.Gate, u.Key, s.From, s.Command),
			"run `"+s.Set+"`"))
	}
	return out
}
