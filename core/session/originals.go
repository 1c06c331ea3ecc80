package session

import (
	"encoding/json"
	"io/fs"
	"slices"
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/fsys"
	"github.com/agentkit/charter/core/projection"
)

// Original is a native file as it was before `charter import` took it
// over, kept so that `charter uninstall` can put it back (SPEC §16).
type Original struct {
	Path string      `json:"path"` // project-relative at project level, else absolute
	Mode fs.FileMode `json:"mode"`
	Data []byte      `json:"data"`
	// Left is the sha256 of the file as uninstall leaves it, when
	// retiring a peer edited it (charter's block out): uninstall puts the
	// bytes back over that, and over nothing, never over other bytes.
	Left string `json:"left,omitempty"`
}

type originals struct {
	Version int        `json:"version"`
	Root    string     `json:"root,omitempty"` // the project, at project level
	Files   []Original `json:"files"`
}

// originalsPath is where a level's originals are kept: in the scope's
// state folder, never in the repository (a project's are the person's,
// keyed by the project's folder).
func (s *Session) originalsPath(root string) (string, error) {
	sc, err := s.Scope()
	if err != nil {
		return "", err
	}
	name := "user.json"
	if root != "" {
		name = "project-" + projection.Sum([]byte(root))[:32] + ".json"
	}
	return s.Sys.Paths.Join(sc.Path, "state", "imported", name), nil
}

func (s *Session) readOriginals(path string) (originals, error) {
	var o originals
	data, err := s.Sys.ReadFile(path, fsys.KindState)
	if fsys.IsAbsent(err) || (err == nil && len(data) == 0) {
		return o, nil
	}
	if err != nil {
		return o, fsys.ReadError(path, err)
	}
	if err := json.Unmarshal(data, &o); err != nil {
		return o, core.Errorf(core.CodeMalformedSettings, "%s is not the list of files import took over charter keeps: it cannot be read (%v); remove it, and restore those files from a backup or git", path, err)
	}
	return o, nil
}

// keepOriginals stores the bytes of each native file import is about to
// take over, unless an earlier import already kept that file's.
func (s *Session) keepOriginals(root string, paths map[string]bool) error {
	if len(paths) == 0 {
		return nil
	}
	at, err := s.originalsPath(root)
	if err != nil {
		return err
	}
	var keep []Original
	for p := range paths {
		fi, err := s.Sys.Fs.Stat(p)
		if err != nil || !fi.Mode().IsRegular() {
			continue // only files that exist are taken over
		}
		data, err := s.Sys.ReadWithin(root, p, fsys.KindContent)
		if err != nil {
			return err
		}
		rel := p
		if root != "" {
			parts, _ := s.Sys.Paths.Within(root, p)
			rel = strings.Join(parts, "/")
		}
		keep = append(keep, Original{Path: rel, Mode: fi.Mode().Perm(), Data: data})
	}
	return s.addOriginals(at, root, keep)
}

// addOriginals adds keep to the level's kept originals; a file kept
// before keeps its first bytes (those from before charter).
func (s *Session) addOriginals(at, root string, keep []Original) error {
	return s.Sys.UpdateFileOpts(at, fsys.WriteOptions{Owned: true}, func(old []byte) ([]byte, error) {
		var o originals
		if len(old) > 0 {
			if err := json.Unmarshal(old, &o); err != nil {
				return nil, core.Errorf(core.CodeMalformedSettings, "%s is not the list of files import took over charter keeps: it cannot be read (%v); remove it and import again", at, err)
			}
		}
		o.Version, o.Root = 1, root
		for _, k := range keep {
			if !slices.ContainsFunc(o.Files, func(f Original) bool { return f.Path == k.Path }) {
				o.Files = append(o.Files, k)
			}
		}
		slices.SortFunc(o.Files, func(a, b Original) int { return strings.Compare(a.Path, b.Path) })
		return json.MarshalIndent(o, "", "  ")
	})
}
