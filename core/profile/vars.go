package profile

import (
	"strings"

	"github.com/agentkit/charter/core"
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

// Vars lists every set variable that core's profile finding consults, in its
// order, and which one selected the profile. It decides nothing itself:
// the selected one is the first whose value is the profile's directory.
func Vars(s *core.System) []ProfileVar {
	home, herr := CompanionHome(s)
	dir, active := Dir(s)
	var out []ProfileVar
	chosen := false
	for _, name := range VarNames(s) {
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
			case !ValidName(segs[0]) || !ValidName(segs[1]):
				pv.Ignored = "a provider or profile name holds characters other than letters, digits, _ and -"
			case chosen:
				pv.Ignored = "an earlier variable already chose the profile"
			}
		}
		out = append(out, pv)
	}
	return out
}

// Mixed lists the profiles the set variables name when they name
// profiles of more than one provider (nil otherwise): a session of one
// agent started inside another's profile. The first is the one chosen.
func Mixed(s *core.System) []core.VarProfile {
	out := VarProfiles(s)
	providers := map[string]bool{}
	for _, h := range out {
		providers[h.Provider] = true
	}
	if len(providers) < 2 {
		return nil
	}
	return out
}
