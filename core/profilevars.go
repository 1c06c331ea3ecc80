package core

import (
	"fmt"
	"strings"
)

// ProfileVar is one variable charter consults to find the active profile,
// as `charter doctor` explains it.
type ProfileVar struct {
	Name  string
	Value string // as set
	// Selected: this variable chose the active profile.
	Selected bool
	// Ignored says why a value that points into the companion home chose
	// no profile; "" for a value outside the home, or a selected one.
	Ignored string
}

// ProfileVars lists every set variable that findProfile consults, in its
// order, and which one selected the profile. It decides nothing itself:
// the selected one is the first whose value is the profile's directory.
func (s *System) ProfileVars() []ProfileVar {
	home, herr := s.CompanionHome()
	dir, active := s.ProfileDir()
	var out []ProfileVar
	chosen := false
	for _, name := range s.profileVars() {
		v := s.Getenv(name)
		if strings.TrimSpace(v) == "" {
			continue
		}
		pv := ProfileVar{Name: name, Value: v}
		p, err := s.Normalize(v)
		switch {
		case err != nil || herr != nil:
		case active && !chosen && p == dir:
			pv.Selected, chosen = true, true
		case s.Paths.EqualName(p, home):
			pv.Ignored = "it points at the agent-switch home itself, not into a profile"
		default:
			segs, inside := s.Paths.Within(home, p)
			switch {
			case !inside:
			case len(segs) < 2:
				pv.Ignored = "it names a provider but no profile"
			case !ValidProfileName(segs[0]) || !ValidProfileName(segs[1]):
				pv.Ignored = "a provider or profile name holds characters other than letters, digits, _ and -"
			case chosen:
				pv.Ignored = "an earlier variable already chose the profile"
			}
		}
		out = append(out, pv)
	}
	return out
}

// VarProfile is a profile one variable names.
type VarProfile struct {
	Variable string `json:"variable"`
	Provider string `json:"provider"`
	Profile  string `json:"profile"`
}

// MixedProfiles lists the profiles the set variables name when they name
// profiles of more than one provider (nil otherwise): a session of one
// agent started inside another's profile. The first is the one chosen.
func (s *System) MixedProfiles() []VarProfile {
	hits, _ := s.varProfiles()
	providers := map[string]bool{}
	out := make([]VarProfile, len(hits))
	for i, h := range hits {
		out[i] = h.VarProfile
		providers[h.Provider] = true
	}
	if len(providers) < 2 {
		return nil
	}
	return out
}

// varProfile is a profile one variable names, with its directory.
type varProfile struct {
	VarProfile
	dir string
}

// varProfiles lists, in the order SPEC §2 tries them, the set variables
// that name a directory inside the companion home's profiles.
func (s *System) varProfiles() ([]varProfile, error) {
	home, err := s.CompanionHome()
	if err != nil {
		return nil, err
	}
	var out []varProfile
	for _, name := range s.profileVars() {
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
