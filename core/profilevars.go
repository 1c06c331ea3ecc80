package core

import "strings"

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
		case s.Paths.equalName(p, home):
			pv.Ignored = "it points at the agent-switch home itself, not into a profile"
		default:
			segs, inside := s.Paths.Within(home, p)
			switch {
			case !inside:
			case len(segs) < 2:
				pv.Ignored = "it names a provider but no profile"
			case !validProfileName(segs[0]) || !validProfileName(segs[1]):
				pv.Ignored = "a provider or profile name holds characters other than letters, digits, _ and -"
			case chosen:
				pv.Ignored = "an earlier variable already chose the profile"
			}
		}
		out = append(out, pv)
	}
	return out
}
