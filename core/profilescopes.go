package core

import (
	"encoding/json"
	"errors"
	"io/fs"
	"sort"
	"strings"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core/fsys"
)

// ProfileScope is one companion profile, or one profile scope charter holds
// under the default root (<root>/profiles/<provider>/<profile>), or both.
type ProfileScope struct {
	Provider string `json:"provider"`
	Profile  string `json:"profile"`
	// InCompanion: agent-switch has this profile (<home>/<provider>/<profile>/config).
	InCompanion bool `json:"inCompanion"`
	// Settings: charter holds a scope directory for it.
	Settings bool   `json:"settings"`
	Path     string `json:"path"` // the scope directory, whether it exists or not
}

// Name is "provider/profile".
func (p ProfileScope) Name() string { return p.Provider + "/" + p.Profile }

// ProfileScopes lists the companion's profiles and charter's profile scopes
// under the default root, sorted; a scope whose profile the companion no
// longer has (renamed or removed) has InCompanion false.
func (s *System) ProfileScopes() ([]ProfileScope, error) {
	root, err := s.DefaultRoot()
	if err != nil {
		return nil, err
	}
	byName := map[string]*ProfileScope{}
	get := func(provider, profile string) *ProfileScope {
		k := provider + "/" + profile
		if byName[k] == nil {
			byName[k] = &ProfileScope{Provider: provider, Profile: profile, Path: s.Paths.Join(root, "profiles", provider, profile)}
		}
		return byName[k]
	}
	if home, err := s.CompanionHome(); err == nil {
		for _, provider := range s.subdirs(home) {
			profiles, err := s.CompanionProfiles(provider)
			if err != nil {
				return nil, err
			}
			for _, p := range profiles {
				get(provider, p).InCompanion = true
			}
		}
	}
	scopes := s.Paths.Join(root, "profiles")
	for _, provider := range s.subdirs(scopes) {
		for _, p := range s.subdirs(s.Paths.Join(scopes, provider)) {
			get(provider, p).Settings = true
		}
	}
	out := make([]ProfileScope, 0, len(byName))
	for _, p := range byName {
		out = append(out, *p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out, nil
}

// subdirs lists the directories in dir with valid profile names ("" when
// dir cannot be read).
func (s *System) subdirs(dir string) []string {
	entries, err := afero.ReadDir(s.Fs, dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() && validProfileName(e.Name()) {
			out = append(out, e.Name())
		}
	}
	return out
}

// ParseProfileName reads "provider/profile", or a bare "profile" of the
// companion's default provider (claude), as agent-switch's --provider does.
func ParseProfileName(s string) (provider, profile string, err error) {
	provider, profile, ok := strings.Cut(s, "/")
	if !ok {
		provider, profile = CompanionShareProvider, s
	}
	if !validProfileName(provider) || !validProfileName(profile) {
		return "", "", Errorf(CodeUsage, "%q is not a profile: write PROVIDER/PROFILE (letters, digits, _ and -), e.g. claude/work", s)
	}
	return provider, profile, nil
}

// MoveProfileScope moves charter's settings of one profile to another (a
// profile the companion renamed) with one rename of the scope directory,
// so the move is whole or not at all. A target that holds anything is
// never overwritten: the rename itself refuses a directory that is not
// empty, so a file that appears meanwhile is safe too.
func (s *System) MoveProfileScope(from, to string) (ProfileScope, ProfileScope, error) {
	root, err := s.DefaultRoot()
	if err != nil {
		return ProfileScope{}, ProfileScope{}, err
	}
	fp, fn, err := ParseProfileName(from)
	if err != nil {
		return ProfileScope{}, ProfileScope{}, err
	}
	tp, tn, err := ParseProfileName(to)
	if err != nil {
		return ProfileScope{}, ProfileScope{}, err
	}
	src := ProfileScope{Provider: fp, Profile: fn, Path: s.Paths.Join(root, "profiles", fp, fn)}
	dst := ProfileScope{Provider: tp, Profile: tn, Path: s.Paths.Join(root, "profiles", tp, tn)}
	if src.Path == dst.Path {
		return src, dst, Errorf(CodeUsage, "profiles move: %s and %s are the same profile", from, to)
	}
	if fi, err := s.Fs.Stat(src.Path); err != nil || !fi.IsDir() {
		return src, dst, Errorf(CodeUsage, "charter holds no settings for %s (no %s): `charter profiles` lists the profiles with settings", src.Name(), src.Path)
	}
	if err := s.Fs.MkdirAll(s.Paths.Dir(dst.Path), fsys.DirMode); err != nil {
		return src, dst, err
	}
	err = s.Fs.Rename(src.Path, dst.Path)
	if err != nil {
		if fi, serr := s.Fs.Stat(dst.Path); serr == nil && fi.IsDir() || errors.Is(err, fs.ErrExist) {
			return src, dst, Errorf(CodeScopeExists, "%s already has settings of its own (%s): charter never overwrites them; move or remove that folder first, then run the move again", dst.Name(), dst.Path)
		}
		return src, dst, err
	}
	dst.Settings, dst.InCompanion = true, s.hasCompanionProfile(tp, tn)
	return src, dst, nil
}

func (s *System) hasCompanionProfile(provider, profile string) bool {
	home, err := s.CompanionHome()
	if err != nil {
		return false
	}
	fi, err := s.Fs.Stat(s.Paths.Join(home, provider, profile, CompanionProfileConfig))
	return err == nil && fi.IsDir()
}

// CompanionActive lists the profiles agent-switch has made active (`use`),
// from its state file ({"active":{"claude":"work","codex":null}}, or the
// old {"active":"work"} for claude), as provider/profile pairs sorted by
// provider; nil when there is none or the file cannot be read.
func (s *System) CompanionActive() []VarProfile {
	home, err := s.CompanionHome()
	if err != nil {
		return nil
	}
	data, err := s.ReadFile(s.Paths.Join(home, CompanionStateFile), fsys.KindManifest)
	if err != nil {
		return nil
	}
	var st struct {
		Active json.RawMessage `json:"active"`
	}
	if json.Unmarshal(data, &st) != nil {
		return nil
	}
	active := map[string]*string{}
	var one string
	if json.Unmarshal(st.Active, &one) == nil {
		active[CompanionShareProvider] = &one
	} else if json.Unmarshal(st.Active, &active) != nil {
		return nil
	}
	var out []VarProfile
	for provider, p := range active {
		if p != nil && validProfileName(provider) && validProfileName(*p) {
			out = append(out, VarProfile{Provider: provider, Profile: *p})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Provider < out[j].Provider })
	return out
}
