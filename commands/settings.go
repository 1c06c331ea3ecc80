package commands

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/inert"
	"github.com/agentkit/charter/core/settings"
)

// SettingsCmd groups the settings subcommands.
type SettingsCmd struct {
	List  SettingsListCmd  `cmd:"" help:"List every setting (or those under a prefix) with its effective value."`
	Get   SettingsGetCmd   `cmd:"" help:"Print one setting's effective value."`
	Set   SettingsSetCmd   `cmd:"" help:"Set a setting in this scope's file (--project, --local: the project's)."`
	Unset SettingsUnsetCmd `cmd:"" help:"Remove a setting from this scope's file (--project, --local: the project's)."`
	Path  SettingsPathCmd  `cmd:"" help:"Print this scope's settings file path."`
	Edit  SettingsEditCmd  `cmd:"" help:"Edit this scope's settings file in $VISUAL or $EDITOR, validated before it is written."`

	Schema SettingsSchemaCmd `cmd:"" help:"Print the JSON Schema of the settings (editors use it; charter keeps a copy in the config root)."`
}

// keyDoc is one setting in JSON: get, set and unset print it.
type keyDoc struct {
	Key    string `json:"key"`
	Value  any    `json:"value"`
	Origin string `json:"origin"`
}

// readSettings reads this run's settings and returns its store as well. A
// malformed policy fails here, so every command that reads settings fails
// with it.
func (a *App) readSettings() (*settings.Store, *settings.Snapshot, error) {
	return a.session().Read()
}

// LayerFlags choose the file a write goes to.
type LayerFlags struct {
	Project bool `name:"project" xor:"layer" help:"Write the project's shared file, <project>/.charter/settings.yaml (created at the repository root when missing)."`
	Local   bool `name:"local" xor:"layer" help:"Write the project's personal file, <project>/.charter/settings.local.yaml (kept out of git)."`
}

func (f LayerFlags) layer() string {
	switch {
	case f.Project:
		return settings.LayerProject
	case f.Local:
		return settings.LayerProjectLocal
	}
	return settings.LayerScope
}

// originText is an origin for people: the policy file reads as "policy".
func originText(st *settings.Store, origin string) string {
	if st.LayerOf(origin) == settings.LayerPolicy {
		return settings.LayerPolicy
	}
	return origin
}

// SettingsListCmd lists every key, or those under a dotted prefix.
type SettingsListCmd struct {
	Prefix     string `arg:"" optional:"" help:"Only keys under this dotted prefix, e.g. gates or commands.suggestions." complete:"prefix"`
	ShowOrigin bool   `name:"show-origin" help:"Show where each value comes from (default or a file)."`
}

func (c *SettingsListCmd) Run(a *App) error {
	names, err := keysUnder(c.Prefix)
	if err != nil {
		return err
	}
	st, snap, err := a.readSettings()
	if err != nil {
		return err
	}
	doc := st.Doc(snap)
	if c.Prefix != "" {
		doc = onlyKeys(doc, names)
	}
	return a.emit(doc, func(w io.Writer) {
		for _, name := range names {
			printAssignment(w, st, snap, name, c.ShowOrigin)
		}
		for _, k := range snap.Unknown {
			fmt.Fprintf(a.Stderr, "charter: note: %s is not a charter setting; it is kept as it is\n", inert.Line(k))
		}
	})
}

// printAssignment prints one `dotted.key = value` line, after its origin
// and a tab when asked, as git config --show-origin does. An empty value
// leaves no trailing blank.
func printAssignment(w io.Writer, st *settings.Store, snap *settings.Snapshot, name string, origin bool) {
	if origin {
		fmt.Fprintf(w, "%s\t", inert.Line(originText(st, snap.Origins[name])))
	}
	fmt.Fprintln(w, assignment(name, snap.Values[name]))
}

func assignment(name string, v any) string {
	if s := formatValue(v); s != "" {
		return name + " = " + s
	}
	return name + " ="
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
	if near := core.Nearest(prefix, keyPrefixes()); near != "" {
		msg += fmt.Sprintf(": did you mean %q?", near)
	} else {
		msg += ": run `charter settings list` to see every key"
	}
	return nil, &core.Error{Kind: core.CodeUnknownKey, Msg: msg}
}

// keyPrefixes lists every dotted prefix of a key and every key, sorted:
// what `settings list PREFIX` accepts.
func keyPrefixes() []string {
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

// SettingsGetCmd prints one value, alone, for scripts.
type SettingsGetCmd struct {
	Key        string `arg:"" help:"Dotted key, e.g. rules.tier." complete:"key"`
	ShowOrigin bool   `name:"show-origin" help:"Print where the value comes from (default, a file or policy), a tab, then the value, as git config --show-origin does."`
}

func (c *SettingsGetCmd) Run(a *App) error {
	if _, err := settings.Known(c.Key); err != nil {
		return err
	}
	st, snap, err := a.readSettings()
	if err != nil {
		return err
	}
	if c.ShowOrigin && !a.JSON { // as git config --show-origin: origin, a tab, the value
		fmt.Fprintf(a.Stdout, "%s\t%s\n", inert.Line(originText(st, snap.Origins[c.Key])), formatValue(snap.Values[c.Key]))
		return nil
	}
	return a.printKey(snap, c.Key, false)
}

// printKey prints one key: for get its value alone, for scripts; to confirm
// a write, the key, its effective value and where that now comes from.
func (a *App) printKey(snap *settings.Snapshot, key string, written bool) error {
	v, origin := snap.Values[key], snap.Origins[key]
	return a.emit(keyDoc{Key: key, Value: v, Origin: origin}, func(w io.Writer) {
		if written {
			fmt.Fprintf(w, "%s (%s)\n", assignment(key, v), inert.Line(origin))
		} else {
			fmt.Fprintln(w, formatValue(v))
		}
	})
}

// SettingsSetCmd writes one value.
type SettingsSetCmd struct {
	Key           string `arg:"" help:"Dotted key, e.g. rules.tier." complete:"key"`
	Value         string `arg:"" help:"The value; lists as a,b,c or a JSON array; a negative number after --." complete:"value"`
	ConfirmShared bool   `name:"confirm-shared" help:"Write even through a link agent-switch shares between profiles."`
	LayerFlags
}

func (c *SettingsSetCmd) Run(a *App) error {
	return a.writeSettings(c.layer(), map[string]string{c.Key: c.Value}, nil, c.ConfirmShared, c.Key)
}

// SettingsUnsetCmd removes one key from the scope file.
type SettingsUnsetCmd struct {
	Key           string `arg:"" help:"Dotted key, e.g. rules.tier." complete:"key"`
	ConfirmShared bool   `name:"confirm-shared" help:"Write even through a link agent-switch shares between profiles."`
	LayerFlags
}

func (c *SettingsUnsetCmd) Run(a *App) error {
	return a.writeSettings(c.layer(), nil, []string{c.Key}, c.ConfirmShared, c.Key)
}

// writeSettings patches one layer's file as the API's PATCH does, then
// confirms the one key written.
func (a *App) writeSettings(layer string, set map[string]string, unset []string, confirmed bool, key string) error {
	u, err := settings.Patch(set, unset, settings.ParseText)
	if err != nil {
		return err
	}
	t, err := a.session().Target(layer)
	if err != nil {
		return err
	}
	var snap *settings.Snapshot
	err = a.guarded(confirmed, func(confirm bool) (err error) {
		u.ConfirmShared = confirm
		snap, err = t.Write(u)
		return err
	})
	if err != nil {
		return err
	}
	return a.printKey(snap, key, true)
}

// SettingsSchemaCmd prints the JSON Schema of the settings.
type SettingsSchemaCmd struct{}

func (c *SettingsSchemaCmd) Run(a *App) error {
	data, err := settings.SchemaJSON()
	if err != nil {
		return err
	}
	_, err = a.Stdout.Write(data)
	return err
}

// SettingsPathCmd prints the scope file path.
type SettingsPathCmd struct{}

func (c *SettingsPathCmd) Run(a *App) error {
	st, err := a.session().Store()
	if err != nil {
		return err
	}
	return a.emit(map[string]string{"path": st.Path()}, func(w io.Writer) { fmt.Fprintln(w, inert.Line(st.Path())) })
}

// formatValue renders a value for people: lists as comma-separated items,
// text from files shown inert (a script that needs the exact bytes reads
// --json).
func formatValue(v any) string {
	switch t := v.(type) {
	case []string:
		return inert.Line(strings.Join(t, ","))
	case bool:
		return strconv.FormatBool(t)
	}
	return inert.Line(fmt.Sprint(v))
}
