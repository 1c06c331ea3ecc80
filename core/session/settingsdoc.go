package session

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/settings"
	"github.com/agentkit/charter/helpers/words"
)

// SettingsDoc is the settings document: `charter settings list --json`,
// GET and PATCH /api/v1/settings.
type SettingsDoc struct {
	settings.Doc
	// ETag is the version of the whole document (a server's ETag header).
	ETag string `json:"-"`
	// Files are the files it was read from, the policy's among them: a
	// cache of the document is current while none of them changes.
	Files []string `json:"-"`
	// Keys are the keys listed, in order, for people.
	Keys []KeyDoc `json:"-"`
}

// SettingsList is the effective settings, every key or those under a
// dotted prefix (the key itself or the keys below it). A prefix that
// matches nothing fails with the nearest one as a hint.
func (s *Session) SettingsList(ctx context.Context, prefix string) (SettingsDoc, error) {
	if err := ctx.Err(); err != nil {
		return SettingsDoc{}, err
	}
	names, err := keysUnder(prefix)
	if err != nil {
		return SettingsDoc{}, err
	}
	st, snap, err := s.Read()
	if err != nil {
		return SettingsDoc{}, err
	}
	files := st.Files()
	if p, err := settings.PolicyPath(s.Sys); err == nil {
		files = append(files, p)
	}
	doc := settingsDoc(st, snap, names)
	doc.Files = files
	if strings.TrimSpace(prefix) != "" {
		doc.Doc = onlyKeys(doc.Doc, names)
	}
	return doc, nil
}

// settingsDoc is snap as a document listing names.
func settingsDoc(st *settings.Store, snap *settings.Snapshot, names []string) SettingsDoc {
	keys := make([]KeyDoc, len(names))
	for i, n := range names {
		keys[i] = keyDoc(st, snap, n)
	}
	return SettingsDoc{Doc: st.Doc(snap), ETag: snap.ETag, Keys: keys}
}

// SettingsPatch is PATCH /api/v1/settings: keys set (JSON values) and
// unset in one layer's file under a precondition, IfMatch (an ETag; ""
// none) or Base (the value read of every key changed; nil none).
type SettingsPatch struct {
	Layer       string
	Set, Base   map[string]json.RawMessage
	Unset       []string
	IfMatch     string
	IfNoneMatch string
	Confirm     bool // write even through a link agent-switch shares
	// Batch runs the write, as the server groups concurrent writes of one
	// file (key: its path); nil writes alone.
	Batch func(key string, u settings.Update, run func([]settings.Update) []settings.Result) settings.Result
}

// PatchSettings checks and writes one patch and returns the whole
// document as the write left it.
func (s *Session) PatchSettings(ctx context.Context, p SettingsPatch) (SettingsDoc, error) {
	if err := ctx.Err(); err != nil {
		return SettingsDoc{}, err
	}
	t, err := s.Target(p.Layer)
	if err != nil {
		return SettingsDoc{}, err
	}
	u, err := settings.Patch(p.Set, p.Unset, settings.ParseJSON)
	if err != nil {
		return SettingsDoc{}, err
	}
	if p.Base != nil {
		b, err := settings.Patch(p.Base, nil, settings.ParseJSON)
		if err != nil {
			return SettingsDoc{}, err
		}
		u.Base = b.Set
	}
	u.ConfirmShared, u.IfMatch, u.IfNoneMatch = p.Confirm, p.IfMatch, p.IfNoneMatch
	var res settings.Result
	if p.Batch != nil {
		res = p.Batch(t.Path(), u, t.WriteAll)
	} else {
		res = t.WriteAll([]settings.Update{u})[0]
	}
	if res.Err != nil {
		return SettingsDoc{}, res.Err
	}
	return settingsDoc(t.st, res.Snapshot, nil), nil
}

// keysUnder lists the keys under a dotted prefix, sorted: the key itself,
// or every key below it. An empty prefix is every key; one that matches
// nothing is an unknown key, with the nearest prefix as a hint.
func keysUnder(prefix string) ([]string, error) {
	prefix = strings.TrimSuffix(strings.TrimSpace(prefix), ".")
	var out []string
	for _, name := range settings.Names() {
		if prefix == "" || name == prefix || strings.HasPrefix(name, prefix+".") {
			out = append(out, name)
		}
	}
	if len(out) > 0 {
		return out, nil
	}
	msg := fmt.Sprintf("no setting is named %q or lies under it", prefix)
	if near := words.Nearest(prefix, KeyPrefixes()); near != "" {
		msg += fmt.Sprintf(": did you mean %q?", near)
	} else {
		msg += ": run `charter settings list` to see every key"
	}
	return nil, &core.Error{Kind: core.CodeUnknownKey, Msg: msg}
}

// KeyPrefixes lists every dotted prefix of a key and every key, sorted:
// what `settings list PREFIX` accepts.
func KeyPrefixes() []string {
	seen := map[string]bool{}
	var out []string
	for _, name := range settings.Names() {
		for i := range name {
			if name[i] == '.' && !seen[name[:i]] {
				seen[name[:i]] = true
				out = append(out, name[:i])
			}
		}
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

// onlyKeys narrows a settings document to the named keys.
func onlyKeys(doc settings.Doc, names []string) settings.Doc {
	origins := make(map[string]string, len(names))
	for _, n := range names {
		origins[n] = doc.Origins[n]
	}
	doc.Origins = origins
	doc.Values = pruned(doc.Values, "", origins)
	return doc
}

// pruned keeps the leaves of a nested map whose dotted name is in keep,
// and the maps that lead to them.
func pruned(m map[string]any, prefix string, keep map[string]string) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		name := k
		if prefix != "" {
			name = prefix + "." + k
		}
		if sub, ok := v.(map[string]any); ok {
			if p := pruned(sub, name, keep); len(p) > 0 {
				out[k] = p
			}
			continue
		}
		if _, ok := keep[name]; ok {
			out[k] = v
		}
	}
	return out
}
