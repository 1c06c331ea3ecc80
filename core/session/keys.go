package session

import (
	"context"

	"github.com/agentkit/charter/core/settings"
)

// KeyDoc is one setting, the one document of `charter settings get|set|
// unset KEY --json` and MCP's settings_get.
type KeyDoc struct {
	Key    string `json:"key"`
	Value  any    `json:"value" jsonschema:"the effective value"`
	Origin string `json:"origin" jsonschema:"the file that gave the value, or default"`
	// Layer is the layer of Origin (default, global, scope, project,
	// projectLocal or policy), for renderers: people read "policy" where
	// JSON gives the policy file's path.
	Layer string `json:"-"`
}

// keyDoc is key's entry of snap.
func keyDoc(st *settings.Store, snap *settings.Snapshot, key string) KeyDoc {
	origin := snap.Origins[key]
	return KeyDoc{Key: key, Value: snap.Values[key], Origin: origin, Layer: st.LayerOf(origin)}
}

// SettingsGet is one setting's effective value and where it comes from;
// an unknown key fails with the schema's suggestion.
func (s *Session) SettingsGet(ctx context.Context, key string) (KeyDoc, error) {
	if err := ctx.Err(); err != nil {
		return KeyDoc{}, err
	}
	if _, err := settings.Known(key); err != nil {
		return KeyDoc{}, err
	}
	// The layer reads (and ping's lock read) walk the same folders:
	// each starts where the last left off, not from "/".
	defer s.Sys.Files.Hold()()
	st, snap, err := s.Read()
	if err != nil {
		return KeyDoc{}, err
	}
	return keyDoc(st, snap, key), nil
}

// SettingsWrite sets and unsets keys in one layer's file (as PATCH
// /api/v1/settings does); Key is the one the answer shows.
type SettingsWrite struct {
	Layer         string // "" is the scope's
	Set           map[string]string
	Unset         []string
	ConfirmShared bool
	Key           string
}

// WriteSettings parses the change, writes it to the layer's file and
// returns the key's effective value afterwards.
func (s *Session) WriteSettings(ctx context.Context, w SettingsWrite) (KeyDoc, error) {
	if err := ctx.Err(); err != nil {
		return KeyDoc{}, err
	}
	u, err := settings.Patch(w.Set, w.Unset, settings.ParseText)
	if err != nil {
		return KeyDoc{}, err
	}
	t, err := s.Target(w.Layer)
	if err != nil {
		return KeyDoc{}, err
	}
	u.ConfirmShared = w.ConfirmShared
	snap, err := t.Write(u)
	if err != nil {
		return KeyDoc{}, err
	}
	return keyDoc(t.st, snap, w.Key), nil
}
