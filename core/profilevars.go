package core

import (
	"fmt"
	"strings"
)

// VarProfile is a profile one variable names.
type VarProfile struct {
	Variable string `json:"variable"`
	Provider string `json:"provider"`
	Profile  string `json:"profile"`
}

// varProfile is a profile one variable names, with its directory.
type varProfile struct {
	VarProfile
	dir string
}

// VarProfiles lists, in the order SPEC §2 tries them, the set variables
// that name a directory inside the companion home's profiles.
func (s *System) VarProfiles() []VarProfile {
	hits, _ := s.varProfiles()
	out := make([]VarProfile, len(hits))
	for i, h := range hits {
		out[i] = h.VarProfile
	}
	return out
}

// varProfiles is VarProfiles with each profile's directory.
func (s *System) varProfiles() ([]varProfile, error) {
	home, err := s.CompanionHome()
	if err != nil {
		return nil, err
	}
	var out []varProfile
	for _, name := range s.ProfileVarNames() {
		v := s.Getenv(name)
		if strings.TrimSpace(v) == "" {
			continue
		}
		p, err := s.Normalize(v)
		if err != nil {
			continue
		}
		segs, ok := s.Paths.Within(home, p)
		if !ok || len(segs) < 2 || !ValidProfileName(segs[0]) || !ValidProfileName(segs[1]) {
			continue
		}
		out = append(out, varProfile{VarProfile{Variable: name, Provider: segs[0], Profile: segs[1]}, p})
	}
	return out, nil
}

// MixedText names each variable with its profile, for ping and doctor.
func MixedText(m []VarProfile) string {
	parts := make([]string, len(m))
	for i, v := range m {
		parts[i] = fmt.Sprintf("%s names %s/%s", v.Variable, v.Provider, v.Profile)
	}
	return strings.Join(parts, ", ")
}
