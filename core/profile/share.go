package profile

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"sort"
	"strings"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/fsys"
)

// shareSource is a file or folder that companion share links of other
// profiles lead to (SPEC §5 "Shared sources"), with the profiles that read it.
type shareSource struct {
	place   fsys.Place
	readers []string
}

// CompanionProfiles lists the companion's profiles of provider: the
// directories under <home>/<provider> that hold a config directory, as
// agent-switch's listProfiles does, sorted.
func CompanionProfiles(s *core.System, provider string) ([]string, error) {
	home, err := CompanionHome(s)
	if err != nil {
		return nil, err
	}
	dir := s.Paths.Join(home, provider)
	entries, err := afero.ReadDir(s.Fs, dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if !e.IsDir() || !ValidName(e.Name()) {
			continue
		}
		if fi, err := s.Fs.Stat(s.Paths.Join(dir, e.Name(), core.CompanionProfileConfig)); err == nil && fi.IsDir() {
			out = append(out, e.Name())
		}
	}
	sort.Strings(out)
	return out, nil
}

// shareSources finds where every companion share link leads: each profile's
// manifest names its links, and each link that still is one is followed to
// the place it ends at. A manifest that cannot be read shares nothing.
func shareSources(s *core.System) []shareSource {
	if !fsys.IsOS(s.Fs) {
		return nil
	}
	home, err := CompanionHome(s)
	if err != nil {
		return nil
	}
	profiles, _ := CompanionProfiles(s, core.CompanionShareProvider)
	var out []shareSource
	for _, p := range profiles {
		config := s.Paths.Join(home, core.CompanionShareProvider, p, core.CompanionProfileConfig)
		for _, name := range shareLinks(s, config) {
			link := s.Paths.Join(config, name)
			fi, err := os.Lstat(link) // onOS: the real file system
			if err != nil || fi.Mode()&(fs.ModeSymlink|fs.ModeIrregular) == 0 {
				continue // forked into the profile's own file, or gone
			}
			place, ok, err := fsys.Locate(link)
			if err != nil || !ok {
				continue
			}
			out = addReader(out, place, p)
		}
	}
	return out
}

// shareLinks reads a profile's manifest: {"links":[names],"tool":"agent-switch"}.
func shareLinks(s *core.System, config string) []string {
	data, err := s.ReadFile(s.Paths.Join(config, core.CompanionShareManifest), fsys.KindManifest)
	if err != nil {
		return nil
	}
	var m struct {
		Links []string `json:"links"`
	}
	if json.Unmarshal(data, &m) != nil {
		return nil
	}
	var out []string
	for _, n := range m.Links {
		if n != "" && n != "." && n != ".." && !strings.ContainsAny(n, `/\`) {
			out = append(out, n)
		}
	}
	return out
}

func addReader(srcs []shareSource, place fsys.Place, profile string) []shareSource {
	for i := range srcs {
		if srcs[i].place.Same(place) {
			srcs[i].readers = append(srcs[i].readers, profile)
			return srcs
		}
	}
	return append(srcs, shareSource{place: place, readers: []string{profile}})
}

// sourceErrorIn is the refusal of a write whose walked target is a shared
// source or lies in one, against srcs read beforehand; nil when it is
// neither. The answer comes from the directories the walk holds.
func sourceErrorIn(srcs []shareSource, target string, t *fsys.Target) error {
	if len(srcs) == 0 {
		return nil
	}
	places := make([]fsys.Place, len(srcs))
	for i, src := range srcs {
		places[i] = src.place
	}
	p, ok := t.Reaches(places)
	if !ok {
		return nil
	}
	e := &core.SharedWriteError{Target: target, SharedPath: p.Path, Kind: "dir"}
	if t.Place().Same(p) {
		e.Kind = "file"
	}
	for _, src := range srcs {
		if src.place.Same(p) {
			e.Readers = src.readers
		}
	}
	return e
}
