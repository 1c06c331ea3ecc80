package doctor

import (
	"fmt"
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/profile"
)

// companionActive: agent-switch has an active profile (`agent-switch use`)
// that no variable in this shell points into, so charter works in the
// global scope while the user believes they are in the profile. `use`
// exports nothing: only `agent-switch run` and the shell wrappers do.
func companionActive(r *run) []Check {
	if profile.Active(r.Sys).Active {
		return nil
	}
	var out []Check
	for _, p := range profile.CompanionActive(r.Sys) {
		run := fmt.Sprintf("%s run %s", core.CompanionBinary, p.Profile)
		if p.Provider != core.CompanionShareProvider {
			run = fmt.Sprintf("%s run --provider %s %s", core.CompanionBinary, p.Provider, p.Profile)
		}
		out = append(out, warn("profile-companion:"+p.Provider, "Profile",
			fmt.Sprintf("agent-switch's active %s profile is %s/%s, but no variable in this shell points into it: charter works in the global scope here", p.Provider, p.Provider, p.Profile),
			fmt.Sprintf("start the agent with `%s` (or its shell wrapper: `eval \"$(%s shellenv)\"`), which sets the profile's variable; for charter itself in this shell: `%s=\"$(%s dir --provider %s)\" charter …`",
				run, core.CompanionBinary, varOf(r.Sys, p.Provider), core.CompanionBinary, p.Provider)))
	}
	return out
}

// varOf is the variable agent-switch sets for provider's profiles.
func varOf(sys *core.System, provider string) string {
	for _, a := range sys.AgentTable.All() {
		if a.Provider == provider && a.DirVar != "" {
			return a.DirVar
		}
	}
	return "HOME"
}

// profileScopes: settings charter holds for a profile agent-switch no
// longer has (renamed or removed) are read by no one.
func profileScopes(r *run) []Check {
	const label = "Profile settings"
	home, err := profile.CompanionHome(r.Sys)
	if err != nil || !exists(r.Sys, home) {
		return nil // without the companion every scope would look orphaned
	}
	ps, err := profile.Scopes(r.Sys)
	if err != nil {
		return nil
	}
	var out []Check
	for _, p := range ps {
		if !p.Settings || p.InCompanion {
			continue
		}
		to := p.Provider + "/NEW"
		var bare []string // profiles of the provider without settings: rename candidates
		for _, q := range ps {
			if q.Provider == p.Provider && q.InCompanion && !q.Settings {
				bare = append(bare, q.Name())
			}
		}
		if len(bare) == 1 {
			to = bare[0]
		}
		fix := fmt.Sprintf("if agent-switch renamed it, carry the settings over: `charter profiles move %s %s`", p.Name(), to)
		if len(bare) > 1 {
			fix += fmt.Sprintf(" (profiles without settings: %s)", strings.Join(bare, ", "))
		}
		fix += fmt.Sprintf("; if it was removed, delete %s", p.Path)
		out = append(out, warn("profile-scope:"+p.Name(), label,
			fmt.Sprintf("charter holds settings for %s (%s), but agent-switch has no such profile: it was renamed or removed, and no one reads them", p.Name(), p.Path), fix))
	}
	return out
}
