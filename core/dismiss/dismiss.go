// Package dismiss keeps the recommendations a user dismissed for good: one
// user-global file, whatever the config root or profile.
package dismiss

import (
	"encoding/json"
	"errors"
	"io/fs"
	"slices"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/fsys"
	"github.com/agentkit/charter/core/profile"
)

// recommendations lists the ids that can be dismissed.
func recommendations() []string { return []string{core.CompanionRecommendationID} }

// Doc is the answer to a dismissal, from `charter dismiss --json` and
// from POST /api/v1/wizard/dismiss-recommendation alike.
type Doc struct {
	OK        bool     `json:"ok"`
	Dismissed []string `json:"dismissed"`
}

type dismissalsFile struct {
	Dismissed []string `json:"dismissed"`
}

// Path is user-global, whatever the config root or profile, so a
// dismissal survives updates, profile switches and host-supplied roots.
func Path(s *core.System) (string, error) {
	root, err := profile.DefaultRoot(s)
	if err != nil {
		return "", err
	}
	return s.Paths.Join(root, "dismissals.json"), nil
}

func read(path string, data []byte) ([]string, error) {
	if len(data) == 0 {
		return nil, nil
	}
	var f dismissalsFile
	if err := json.Unmarshal(data, &f); err != nil {
		// A file edited or cut short by hand: say so in the user's words,
		// not the JSON parser's, and how to get going again.
		return nil, core.Errorf(core.CodeMalformedSettings, "%s is not the list of dismissals charter writes ({\"dismissed\": [\"id\"]}): fix it, or delete it (the dismissed recommendations then show again)", path)
	}
	return f.Dismissed, nil
}

// Dismissed reports whether id has been dismissed.
func Dismissed(s *core.System, id string) (bool, error) {
	path, err := Path(s)
	if err != nil {
		return false, err
	}
	data, err := s.ReadFile(path, fsys.KindState)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fsys.ReadError(path, err)
	}
	ids, err := read(path, data)
	return slices.Contains(ids, id), err
}

// Dismiss records id for good and returns every dismissed id. Dismissing
// twice is not an error; a write that fails is.
func Dismiss(s *core.System, id string, confirmShared bool) ([]string, error) {
	if !slices.Contains(recommendations(), id) {
		return nil, core.Errorf(core.CodeUnknownID, "unknown recommendation id %q: the only id is %q", id, core.CompanionRecommendationID)
	}
	path, err := Path(s)
	if err != nil {
		return nil, err
	}
	var ids []string
	err = s.UpdateFileOpts(path, fsys.WriteOptions{ConfirmShared: confirmShared, Owned: true}, func(old []byte) ([]byte, error) {
		if ids, err = read(path, old); err != nil {
			return nil, err
		}
		if slices.Contains(ids, id) {
			return nil, nil
		}
		ids = append(ids, id)
		data, err := json.MarshalIndent(dismissalsFile{Dismissed: ids}, "", "  ")
		return append(data, '\n'), err
	})
	if err != nil {
		return nil, err
	}
	return ids, nil
}

// Undismiss brings id back: it removes id from the dismissals file, in one
// atomic update, and returns the ids still dismissed. Undoing what was never
// dismissed (or with no file at all) writes nothing and is not an error.
func Undismiss(s *core.System, id string, confirmShared bool) ([]string, error) {
	if !slices.Contains(recommendations(), id) {
		return nil, core.Errorf(core.CodeUnknownID, "unknown recommendation id %q: the only id is %q", id, core.CompanionRecommendationID)
	}
	path, err := Path(s)
	if err != nil {
		return nil, err
	}
	ids := []string{}
	err = s.UpdateFileOpts(path, fsys.WriteOptions{ConfirmShared: confirmShared, Owned: true}, func(old []byte) ([]byte, error) {
		read, err := read(path, old)
		if err != nil {
			return nil, err
		}
		ids = slices.DeleteFunc(slices.Clone(read), func(d string) bool { return d == id })
		if len(ids) == len(read) {
			return nil, nil // nothing to undo: no write
		}
		data, err := json.MarshalIndent(dismissalsFile{Dismissed: ids}, "", "  ")
		return append(data, '\n'), err
	})
	if err != nil {
		return nil, err
	}
	if ids == nil {
		ids = []string{}
	}
	return ids, nil
}
