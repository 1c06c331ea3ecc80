package commands

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/agentkit/charter/core/inert"
	"github.com/agentkit/charter/core/session"
	"github.com/agentkit/charter/core/settings"
	"github.com/agentkit/charter/helpers/jsondoc"
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
func originText(k session.KeyDoc) string {
	if k.Layer == settings.LayerPolicy {
		return settings.LayerPolicy
	}
	return k.Origin
}

// SettingsListCmd lists every key, or those under a dotted prefix.
type SettingsListCmd struct {
	Prefix     string `arg:"" optional:"" help:"Only keys under this dotted prefix, e.g. gates or commands.suggestions." complete:"prefix"`
	ShowOrigin bool   `name:"show-origin" help:"Show where each value comes from (default or a file)."`
}

func (c *SettingsListCmd) Run(ctx context.Context, a *App) error {
	doc, err := a.session().SettingsList(ctx, c.Prefix)
	if err != nil {
		return err
	}
	return a.emit(doc, func(w io.Writer) {
		for _, k := range doc.Keys {
			if c.ShowOrigin { // as git config --show-origin: origin, a tab
				fmt.Fprintf(w, "%s\t", inert.Line(originText(k)))
			}
			fmt.Fprintln(w, assignment(k.Key, k.Value))
		}
		for _, k := range doc.Unknown {
			fmt.Fprintf(a.Stderr, "charter: note: %s is not a charter setting; it is kept as it is\n", inert.Line(k))
		}
	})
}

// assignment is one `dotted.key = value` line; an empty value leaves no
// trailing blank.
func assignment(name string, v any) string {
	if s := formatValue(v); s != "" {
		return name + " = " + s
	}
	return name + " ="
}

// SettingsGetCmd prints one value, alone, for scripts.
type SettingsGetCmd struct {
	Key        string `arg:"" help:"Dotted key, e.g. rules.tier." complete:"key"`
	ShowOrigin bool   `name:"show-origin" help:"Print where the value comes from (default, a file or policy), a tab, then the value, as git config --show-origin does."`
}

func (c *SettingsGetCmd) Run(ctx context.Context, a *App) error {
	k, err := a.session().SettingsGet(ctx, c.Key)
	if err != nil {
		return err
	}
	if c.ShowOrigin && !a.JSON { // as git config --show-origin: origin, a tab, the value
		fmt.Fprintf(a.Stdout, "%s\t%s\n", inert.Line(originText(k)), formatValue(k.Value))
		return nil
	}
	return a.printKey(k, false)
}

// printKey prints one key: for get its value alone, for scripts; to confirm
// a write, the key, its effective value and where that now comes from.
func (a *App) printKey(k session.KeyDoc, written bool) error {
	return a.emit(k, func(w io.Writer) {
		if written {
			fmt.Fprintf(w, "%s (%s)\n", assignment(k.Key, k.Value), inert.Line(k.Origin))
		} else {
			fmt.Fprintln(w, formatValue(k.Value))
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

func (c *SettingsSetCmd) Run(ctx context.Context, a *App) error {
	return a.writeSettings(ctx, c.layer(), map[string]string{c.Key: c.Value}, nil, c.ConfirmShared, c.Key)
}

// SettingsUnsetCmd removes one key from the scope file.
type SettingsUnsetCmd struct {
	Key           string `arg:"" help:"Dotted key, e.g. rules.tier." complete:"key"`
	ConfirmShared bool   `name:"confirm-shared" help:"Write even through a link agent-switch shares between profiles."`
	LayerFlags
}

func (c *SettingsUnsetCmd) Run(ctx context.Context, a *App) error {
	return a.writeSettings(ctx, c.layer(), nil, []string{c.Key}, c.ConfirmShared, c.Key)
}

// writeSettings patches one layer's file as the API's PATCH does, then
// confirms the one key written.
func (a *App) writeSettings(ctx context.Context, layer string, set map[string]string, unset []string, confirmed bool, key string) error {
	var k session.KeyDoc
	err := a.guarded(confirmed, func(confirm bool) (err error) {
		k, err = a.session().WriteSettings(ctx, session.SettingsWrite{Layer: layer, Set: set, Unset: unset, ConfirmShared: confirm, Key: key})
		return err
	})
	if err != nil {
		return err
	}
	return a.printKey(k, true)
}

// SettingsSchemaCmd prints the JSON Schema of the settings.
type SettingsSchemaCmd struct{}

func (c *SettingsSchemaCmd) Run(a *App) error {
	data, err := jsondoc.Encode(a.session().SettingsSchema(), "", "  ")
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
