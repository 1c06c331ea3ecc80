package profile

import (
	"fmt"
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/fsys"
)

// DefaultRoot is <real home>/.agentkit/charter, where user-global files
// live: inside an antigravity profile, HOME is the profile's fake home, and
// charter's files stay in the account's own.
func DefaultRoot(s *core.System) (string, error) {
	home, err := RealHome(s)
	if err != nil {
		return "", err
	}
	return s.Paths.Join(home, ".agentkit", "charter"), nil
}

// ResolveRoot applies flag > AGENTKIT_CONFIG_HOME > default. flag is nil
// when --config-root was not given.
func ResolveRoot(s *core.System, flag *string) (core.ConfigRoot, error) {
	if flag != nil {
		if strings.TrimSpace(*flag) == "" {
			return core.ConfigRoot{}, core.Errorf(core.CodeUsage, "--config-root is blank: give a directory path, or leave the flag out to use the default")
		}
		p, err := s.Normalize(*flag)
		if err != nil {
			return core.ConfigRoot{}, fmt.Errorf("--config-root: %w", err)
		}
		return core.ConfigRoot{Path: p, Source: core.SourceFlag}, nil
	}
	if v := s.Getenv(core.ConfigHomeVar); strings.TrimSpace(v) != "" {
		p, err := s.Normalize(v)
		if err != nil {
			return core.ConfigRoot{}, fmt.Errorf("%s: %w", core.ConfigHomeVar, err)
		}
		return core.ConfigRoot{Path: p, Source: core.SourceEnv}, nil
	}
	p, err := DefaultRoot(s)
	if err != nil {
		return core.ConfigRoot{}, err
	}
	return core.ConfigRoot{Path: p, Source: core.SourceDefault}, nil
}

// CompanionHome is $AGENT_SWITCH_HOME, else <real home>/.agent-switch.
func CompanionHome(s *core.System) (string, error) {
	if v := s.Getenv(core.CompanionHomeVar); strings.TrimSpace(v) != "" {
		return s.Normalize(v)
	}
	home, err := RealHome(s)
	if err != nil {
		return "", err
	}
	return s.Paths.Join(home, core.CompanionHomeDir), nil
}

// RealHome is the account's home: $HOME, unless HOME itself is an
// antigravity profile's fake home inside the companion tree (SPEC §2); then
// the directory holding the companion home when that is named
// .agent-switch, else the home the system user database gives.
func RealHome(s *core.System) (string, error) {
	if hp, ok := homeProfile(s); ok {
		return hp.realHome, nil
	}
	return s.Home()
}

// homeProfileDir is an antigravity profile entered through HOME.
type homeProfileDir struct {
	name     string // the profile, a valid name
	home     string // HOME, normalised: the profile's config directory
	realHome string
}

// homeProfile recognises HOME = <companion home>/antigravity/<name>/config.
// Without AGENT_SWITCH_HOME the companion home is found in HOME's own text:
// its last four segments are .agent-switch/antigravity/<name>/config.
func homeProfile(s *core.System) (homeProfileDir, bool) {
	home, err := s.Home()
	if err != nil {
		return homeProfileDir{}, false
	}
	var companion string
	if v := s.Getenv(core.CompanionHomeVar); strings.TrimSpace(v) != "" {
		if companion, err = s.Normalize(v); err != nil {
			return homeProfileDir{}, false
		}
	} else {
		companion = home
		for range 3 {
			companion = s.Paths.Dir(companion)
		}
		if !s.Paths.EqualName(lastName(s.Paths, companion), core.CompanionHomeDir) {
			return homeProfileDir{}, false
		}
	}
	segs, ok := s.Paths.Within(companion, home)
	if !ok || len(segs) != 3 || segs[0] != core.CompanionHomeProvider || segs[2] != core.CompanionProfileConfig || !ValidName(segs[1]) {
		return homeProfileDir{}, false
	}
	hp := homeProfileDir{name: segs[1], home: home}
	if s.Paths.EqualName(lastName(s.Paths, companion), core.CompanionHomeDir) {
		hp.realHome = s.Paths.Dir(companion)
		return hp, true
	}
	if s.UserHome == nil {
		return homeProfileDir{}, false
	}
	real, err := s.UserHome()
	if err != nil || strings.TrimSpace(real) == "" {
		return homeProfileDir{}, false
	}
	if hp.realHome, err = s.Normalize(real); err != nil {
		return homeProfileDir{}, false
	}
	return hp, true
}

// lastName is the final element of a clean path.
func lastName(ps fsys.PathStyle, p string) string {
	d := ps.Dir(p)
	return strings.TrimLeft(p[len(d):], `/\`)
}

// ValidName is a valid provider or profile name: letters, digits, _ and
// -, at least one. A loop, not a package-level regexp, which every command
// would compile at start-up.
func ValidName(s string) bool {
	for _, c := range []byte(s) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return s != ""
}
