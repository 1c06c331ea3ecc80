package profile

import (
	"slices"
	"strings"

	"github.com/agentkit/charter/core"
)

// VarNames lists the variables that may point into the companion tree, in
// the order they are consulted: the served agent's own, each other
// agent's, then every other *_CONFIG_DIR in lexical order.
func VarNames(s *core.System) []string {
	var vars []string
	dv := s.AgentTable.DirVars()
	for _, a := range dv {
		if a.Agent == s.Serves() {
			vars = append(vars, a.Var)
		}
	}
	for _, a := range dv {
		if !slices.Contains(vars, a.Var) {
			vars = append(vars, a.Var)
		}
	}
	for _, n := range s.VarNames() {
		if strings.HasSuffix(n, "_CONFIG_DIR") && !slices.Contains(vars, n) {
			vars = append(vars, n)
		}
	}
	return vars
}

// Active finds the companion profile the agent was pointed at.
func Active(s *core.System) core.Profile {
	p, _ := find(s)
	return p
}

// Dir returns the normalised directory of the active profile: the agent's
// own config directory, as the selecting variable gives it (for a profile
// entered through HOME, HOME itself).
func Dir(s *core.System) (string, bool) {
	p, dir := find(s)
	return dir, p.Active
}

// ViaHome reports whether the active profile was entered through HOME
// (antigravity) rather than an agent's variable.
func ViaHome(s *core.System) bool {
	p, dir := find(s)
	hp, ok := homeProfile(s)
	return p.Active && ok && dir == hp.home
}

// find applies SPEC §2: each variable in turn, then HOME last.
func find(s *core.System) (core.Profile, string) {
	hits, err := varProfiles(s)
	if err != nil {
		return core.Profile{}, ""
	}
	if len(hits) > 0 {
		provider, profile := hits[0].Provider, hits[0].Profile
		return core.Profile{Active: true, Provider: &provider, Profile: &profile}, hits[0].dir
	}
	if hp, ok := homeProfile(s); ok {
		provider, profile := core.CompanionHomeProvider, hp.name
		return core.Profile{Active: true, Provider: &provider, Profile: &profile}, hp.home
	}
	return core.Profile{}, ""
}

// varProfile is a profile one variable names, with its directory.
type varProfile struct {
	core.VarProfile
	dir string
}

// VarProfiles lists, in the order SPEC §2 tries them, the set variables
// that name a directory inside the companion home's profiles.
func VarProfiles(s *core.System) []core.VarProfile {
	hits, _ := varProfiles(s)
	out := make([]core.VarProfile, len(hits))
	for i, h := range hits {
		out[i] = h.VarProfile
	}
	return out
}

// varProfiles is VarProfiles with each profile's directory.
func varProfiles(s *core.System) ([]varProfile, error) {
	home, err := CompanionHome(s)
	if err != nil {
		return nil, err
	}
	var out []varProfile
	for _, name := range VarNames(s) {
		v := s.Getenv(name)
		if strings.TrimSpace(v) == "" {
			continue
		}
		p, err := s.Normalize(v)
		if err != nil {
			continue
		}
		segs, ok := s.Paths.Within(home, p)
		if !ok || len(segs) < 2 || !ValidName(segs[0]) || !ValidName(segs[1]) {
			continue
		}
		out = append(out, varProfile{core.VarProfile{Variable: name, Provider: segs[0], Profile: segs[1]}, p})
	}
	return out, nil
}
