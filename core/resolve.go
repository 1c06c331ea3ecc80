package core

import (
	"github.com/agentkit/charter/core/fsys"

	"fmt"
	"slices"
	"strings"
)

// Where a config root came from.
const (
	SourceFlag    = "flag"
	SourceEnv     = "env"
	SourceDefault = "default"
)

// Kinds of scope.
const (
	ScopeGlobal  = "global"
	ScopeProfile = "profile"
	ScopeHost    = "host"
)

// ConfigHomeVar lets a host choose charter's config root.
const ConfigHomeVar = "AGENTKIT_CONFIG_HOME"

// ConfigRoot is the directory charter keeps its files under.
type ConfigRoot struct {
	Path   string `json:"path"`
	Source string `json:"source"`
}

// Profile is the companion profile charter runs inside, if any.
type Profile struct {
	Active   bool    `json:"active"`
	Provider *string `json:"provider"`
	Profile  *string `json:"profile"`
}

// Name is "provider/profile", or "" outside a profile.
func (p Profile) Name() string {
	if !p.Active {
		return ""
	}
	return *p.Provider + "/" + *p.Profile
}

// Scope is where settings, state, token and discovery file live.
type Scope struct {
	Kind    string     `json:"kind"`
	Path    string     `json:"path"`
	Root    ConfigRoot `json:"-"`
	Profile Profile    `json:"-"`
}

// Home returns the user's home directory.
func (s *System) Home() (string, error) {
	h, err := s.homeText()
	if err != nil {
		return "", err
	}
	return s.Normalize(h)
}

// homeText is $HOME as set, or on Windows %USERPROFILE% when HOME is not.
func (s *System) homeText() (string, error) {
	h := strings.TrimSpace(s.Getenv("HOME"))
	if h == "" && s.Paths.Windows {
		h = strings.TrimSpace(s.Getenv("USERPROFILE"))
	}
	if h == "" {
		return "", ErrNoHome
	}
	return h, nil
}

// Normalize trims p, expands a leading ~, makes it absolute and cleans it.
// Symbolic links are kept: the companion relies on the exact text.
func (s *System) Normalize(p string) (string, error) {
	p = strings.TrimSpace(p)
	if p == "" {
		return "", Errorf(CodeUsage, "empty path")
	}
	if p == "~" || strings.HasPrefix(p, "~/") || (s.Paths.Windows && strings.HasPrefix(p, `~\`)) {
		home, err := s.homeText()
		if err != nil {
			return "", fmt.Errorf("expand %q: %w", p, err)
		}
		p = home + s.Paths.Sep() + p[1:]
	}
	if !s.Paths.IsAbs(p) {
		wd, err := s.Getwd()
		if err != nil {
			return "", fmt.Errorf("make %q absolute: %w", p, err)
		}
		p = s.Paths.Join(wd, p)
	}
	return s.Paths.Clean(p), nil
}

// DefaultRoot is <real home>/.agentkit/charter, where user-global files
// live: inside an antigravity profile, HOME is the profile's fake home, and
// charter's files stay in the account's own.
func (s *System) DefaultRoot() (string, error) {
	home, err := s.RealHome()
	if err != nil {
		return "", err
	}
	return s.Paths.Join(home, ".agentkit", "charter"), nil
}

// ResolveRoot applies flag > AGENTKIT_CONFIG_HOME > default. flag is nil
// when --config-root was not given.
func (s *System) ResolveRoot(flag *string) (ConfigRoot, error) {
	if flag != nil {
		if strings.TrimSpace(*flag) == "" {
			return ConfigRoot{}, Errorf(CodeUsage, "--config-root is blank: give a directory path, or leave the flag out to use the default")
		}
		p, err := s.Normalize(*flag)
		if err != nil {
			return ConfigRoot{}, fmt.Errorf("--config-root: %w", err)
		}
		return ConfigRoot{Path: p, Source: SourceFlag}, nil
	}
	if v := s.Getenv(ConfigHomeVar); strings.TrimSpace(v) != "" {
		p, err := s.Normalize(v)
		if err != nil {
			return ConfigRoot{}, fmt.Errorf("%s: %w", ConfigHomeVar, err)
		}
		return ConfigRoot{Path: p, Source: SourceEnv}, nil
	}
	p, err := s.DefaultRoot()
	if err != nil {
		return ConfigRoot{}, err
	}
	return ConfigRoot{Path: p, Source: SourceDefault}, nil
}

// CompanionHome is $AGENT_SWITCH_HOME, else <real home>/.agent-switch.
func (s *System) CompanionHome() (string, error) {
	if v := s.Getenv(CompanionHomeVar); strings.TrimSpace(v) != "" {
		return s.Normalize(v)
	}
	home, err := s.RealHome()
	if err != nil {
		return "", err
	}
	return s.Paths.Join(home, CompanionHomeDir), nil
}

// RealHome is the account's home: $HOME, unless HOME itself is an
// antigravity profile's fake home inside the companion tree (SPEC §2); then
// the directory holding the companion home when that is named
// .agent-switch, else the home the system user database gives.
func (s *System) RealHome() (string, error) {
	if hp, ok := s.homeProfile(); ok {
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
func (s *System) homeProfile() (homeProfileDir, bool) {
	home, err := s.Home()
	if err != nil {
		return homeProfileDir{}, false
	}
	var companion string
	if v := s.Getenv(CompanionHomeVar); strings.TrimSpace(v) != "" {
		if companion, err = s.Normalize(v); err != nil {
			return homeProfileDir{}, false
		}
	} else {
		companion = home
		for range 3 {
			companion = s.Paths.Dir(companion)
		}
		if !s.Paths.EqualName(lastName(s.Paths, companion), CompanionHomeDir) {
			return homeProfileDir{}, false
		}
	}
	segs, ok := s.Paths.Within(companion, home)
	if !ok || len(segs) != 3 || segs[0] != CompanionHomeProvider || segs[2] != CompanionProfileConfig || !ValidProfileName(segs[1]) {
		return homeProfileDir{}, false
	}
	hp := homeProfileDir{name: segs[1], home: home}
	if s.Paths.EqualName(lastName(s.Paths, companion), CompanionHomeDir) {
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

// ValidProfileName: letters, digits, _ and -, at least one. A loop, not a
// package-level regexp, which every command would compile at start-up.
func ValidProfileName(s string) bool {
	for _, c := range []byte(s) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return s != ""
}

// ProfileVarNames lists the variables that may point into the companion tree,
// in the order they are consulted: each agent's own, then every other
// *_CONFIG_DIR in lexical order.
func (s *System) ProfileVarNames() []string {
	var vars []string
	for a := range s.AgentTable.Each() {
		if a.Name == s.serves && a.DirVar != "" {
			vars = append(vars, a.DirVar)
		}
	}
	for a := range s.AgentTable.Each() {
		if a.DirVar != "" && !slices.Contains(vars, a.DirVar) {
			vars = append(vars, a.DirVar)
		}
	}
	for _, n := range s.VarNames() {
		if strings.HasSuffix(n, "_CONFIG_DIR") && !slices.Contains(vars, n) {
			vars = append(vars, n)
		}
	}
	return vars
}

// ActiveProfile finds the companion profile the agent was pointed at.
func (s *System) ActiveProfile() Profile {
	p, _ := s.findProfile()
	return p
}

// ProfileDir returns the normalised directory of the active profile: the
// agent's own config directory, as the selecting variable gives it (for a
// profile entered through HOME, HOME itself).
func (s *System) ProfileDir() (string, bool) {
	p, dir := s.findProfile()
	return dir, p.Active
}

// ProfileViaHome reports whether the active profile was entered through
// HOME (antigravity) rather than an agent's variable.
func (s *System) ProfileViaHome() bool {
	p, dir := s.findProfile()
	hp, ok := s.homeProfile()
	return p.Active && ok && dir == hp.home
}

// findProfile applies SPEC §2: each variable in turn, then HOME last.
func (s *System) findProfile() (Profile, string) {
	hits, err := s.varProfiles()
	if err != nil {
		return Profile{}, ""
	}
	if len(hits) > 0 {
		provider, profile := hits[0].Provider, hits[0].Profile
		return Profile{Active: true, Provider: &provider, Profile: &profile}, hits[0].dir
	}
	if hp, ok := s.homeProfile(); ok {
		provider, profile := CompanionHomeProvider, hp.name
		return Profile{Active: true, Provider: &provider, Profile: &profile}, hp.home
	}
	return Profile{}, ""
}
