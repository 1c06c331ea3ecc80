// Package profile is charter's view of the companion and its profiles:
// which profile the environment names (SPEC §2), the config root and scope
// a run uses, each agent's directory in it, the links the companion shares
// between profiles and the write guard that refuses a write through them
// (Guard), the scope directories charter keeps, and moving a scope when a
// profile is renamed.
package profile

import (
	"encoding/json"
	"errors"
	"io/fs"
	"sort"
	"strings"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/fsys"
)

// Scope is one companion profile, or one profile scope charter holds
// under the default root (<root>/profiles/<provider>/<profile>), or both.
type Scope struct {
	Provider string `json:"provider"`
	Profile  string `json:"profile"`
	// InCompanion: agent-switch has this profile (<home>/<provider>/<profile>/config).
	InCompanion bool `json:"inCompanion"`
	// Settings: charter holds a scope directory for it.
	Settings bool   `json:"settings"`
	Path     string `json:"path"` // the scope directory, whether it exists or not
}

// Name is "provider/profile".
func (p Scope) Name() string { return p.Provider + "/" + p.Profile }

// Scopes lists the companion's profiles and charter's profile scopes
// under the default root, sorted; a scope whose profile the companion no
// longer has (renamed or removed) has InCompanion false.
func Scopes(s *core.System) ([]Scope, error) {
	root, err := DefaultRoot(s)
	if err != nil {
		return nil, err
	}
	byName := map[string]*Scope{}
	get := func(provider, profile string) *Scope {
		k := provider + "/" + profile
		if byName[k] == nil {
			byName[k] = &Scope{Provider: provider, Profile: profile, Path: s.Paths.Join(root, "profiles", provider, profile)}
		}
		return byName[k]
	}
	if home, err := CompanionHome(s); err == nil {
		for _, provider := range subdirs(s, home) {
			profiles, err := CompanionProfiles(s, provider)
			if err != nil {
				return nil, err
			}
			for _, p := range profiles {
				get(provider, p).InCompanion = true
			}
		}
	}
	scopes := s.Paths.Join(root, "profiles")
	for _, provider := range subdirs(s, scopes) {
		for _, p := range subdirs(s, s.Paths.Join(scopes, provider)) {
			get(provider, p).Settings = true
		}
	}
	out := make([]Scope, 0, len(byName))
	for _, p := range byName {
		out = append(out, *p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out, nil
}

// subdirs lists the directories in dir with valid profile names ("" when
// dir cannot be read).
func subdirs(s *core.System, dir string) []string {
	entries, err := afero.ReadDir(s.Fs, dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() && ValidName(e.Name()) {
			out = append(out, e.Name())
		}
	}
	return out
}

// ParseName reads "provider/profile", or a bare "profile" of the
// companion's default provider (claude), as agent-switch's --provider does.
func ParseName(s string) (provider, profile string, err error) {
	provider, profile, ok := strings.Cut(s, "/")
	if !ok {
		provider, profile = core.CompanionShareProvider, s
	}
	if !ValidName(provider) || !ValidName(profile) {
		return "", "", core.Errorf(core.CodeUsage, "%q is not a profile: write PROVIDER/PROFILE (letters, digits, _ and -), e.g. claude/work", s)
	}
	return provider, profile, nil
}

// Move moves charter's settings of one profile to another (a
// profile the companion renamed) with one rename of the scope directory,
// so the move is whole or not at all. A target that holds anything is
// never overwritten: the rename itself refuses a directory that is not
// empty, so a file that appears meanwhile is safe too.
func Move(s *core.System, from, to string) (Scope, Scope, error) {
	root, err := DefaultRoot(s)
	if err != nil {
		return Scope{}, Scope{}, err
	}
	fp, fn, err := ParseName(from)
	if err != nil {
		return Scope{}, Scope{}, err
	}
	tp, tn, err := ParseName(to)
	if err != nil {
		return Scope{}, Scope{}, err
	}
	src := Scope{Provider: fp, Profile: fn, Path: s.Paths.Join(root, "profiles", fp, fn)}
	dst := Scope{Provider: tp, Profile: tn, Path: s.Paths.Join(root, "profiles", tp, tn)}
	if src.Path == dst.Path {
		return src, dst, core.Errorf(core.CodeUsage, "profiles move: %s and %s are the same profile", from, to)
	}
	if fi, err := s.Fs.Stat(src.Path); err != nil || !fi.IsDir() {
		return src, dst, core.Errorf(core.CodeUsage, "charter holds no settings for %s (no %s): `charter profiles` lists the profiles with settings", src.Name(), src.Path)
	}
	if err := s.Fs.MkdirAll(s.Paths.Dir(dst.Path), fsys.DirMode); err != nil {
		return src, dst, err
	}
	err = s.Fs.Rename(src.Path, dst.Path)
	if err != nil {
		if fi, serr := s.Fs.Stat(dst.Path); serr == nil && fi.IsDir() || errors.Is(err, fs.ErrExist) {
			return src, dst, core.Errorf(core.CodeScopeExists, "%s already has settings of its own (%s): charter never overwrites them; move or remove that folder first, then run the move again", dst.Name(), dst.Path)
		}
		return src, dst, err
	}
	dst.Settings, dst.InCompanion = true, hasCompanionProfile(s, tp, tn)
	return src, dst, nil
}

func hasCompanionProfile(s *core.System, provider, profile string) bool {
	home, err := CompanionHome(s)
	if err != nil {
		return false
	}
	fi, err := s.Fs.Stat(s.Paths.Join(home, provider, profile, core.CompanionProfileConfig))
	return err == nil && fi.IsDir()
}

// CompanionActive lists the profiles agent-switch has made active (`use`),
// from its state file ({"active":{"claude":"work","codex":null}}, or the
// old {"active":"work"} for claude), as provider/profile pairs sorted by
// provider; nil when there is none or the file cannot be read.
func CompanionActive(s *core.System) []core.VarProfile {
	home, err := CompanionHome(s)
	if err != nil {
		return nil
	}
	data, err := s.ReadFile(s.Paths.Join(home, core.CompanionStateFile), fsys.KindManifest)
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
		active[core.CompanionShareProvider] = &one
	} else if json.Unmarshal(st.Active, &active) != nil {
		return nil
	}
	var out []core.VarProfile
	for provider, p := range active {
		if p != nil && ValidName(provider) && ValidName(*p) {
			out = append(out, core.VarProfile{Provider: provider, Profile: *p})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Provider < out[j].Provider })
	return out
}
