package commands

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/settings"
)

// SettingsCmd groups the settings subcommands.
type SettingsCmd struct {
	List  SettingsListCmd  `cmd:"" help:"List every setting with its effective value."`
	Get   SettingsGetCmd   `cmd:"" help:"Print one setting's effective value."`
	Set   SettingsSetCmd   `cmd:"" help:"Set a setting in this scope's file (--project, --local: the project's)."`
	Unset SettingsUnsetCmd `cmd:"" help:"Remove a setting from this scope's file (--project, --local: the project's)."`
	Path  SettingsPathCmd  `cmd:"" help:"Print this scope's settings file path."`
	Edit  SettingsEditCmd  `cmd:"" help:"Edit this scope's settings file in $VISUAL or $EDITOR, validated before it is written."`
}

// keyDoc is one setting in JSON: get, set and unset print it.
type keyDoc struct {
	Key    string `json:"key"`
	Value  any    `json:"value"`
	Origin string `json:"origin"`
}

// settingsStore is the layered store of this run: scope, project (unless
// --no-project) and policy. A malformed policy fails here, so every command
// that reads settings fails with it.
func (a *App) settingsStore() (*settings.Store, error) {
	sc, err := a.Scope()
	if err != nil {
		return nil, err
	}
	project, err := a.Project()
	if err != nil {
		return nil, err
	}
	policy, err := settings.LoadPolicy(a.Sys)
	if err != nil {
		return nil, err
	}
	return settings.Open(a.Sys, sc, project, policy), nil
}

// readSettings reads this run's settings and returns its store as well.
func (a *App) readSettings() (*settings.Store, *settings.Snapshot, error) {
	st, err := a.settingsStore()
	if err != nil {
		return nil, nil, err
	}
	snap, err := st.Read()
	return st, snap, err
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

// writeStore is the store that writes layer. Without a project yet, a
// project layer is created at the repository root (or --project-dir).
func (a *App) writeStore(layer string) (*settings.Store, error) {
	if layer != settings.LayerScope && a.noProject {
		return nil, &core.UsageError{Msg: fmt.Sprintf("--%s writes the project's file, but --no-project turns the project off: give one of them", map[string]string{settings.LayerProject: "project", settings.LayerProjectLocal: "local"}[layer])}
	}
	st, err := a.settingsStore()
	if err != nil {
		return nil, err
	}
	if layer != settings.LayerScope && st.Project() == nil {
		root, err := a.Sys.ProjectRootForCreate(a.projectFlag)
		if err != nil {
			return nil, err
		}
		project, err := a.Sys.ProjectAt(root, core.SourceRepository)
		if err != nil {
			return nil, err
		}
		sc, err := a.Scope()
		if err != nil {
			return nil, err
		}
		st = settings.Open(a.Sys, sc, project, st.Policy())
	}
	return st.Target(layer)
}

// originText is an origin for people: the policy file reads as "policy".
func originText(st *settings.Store, origin string) string {
	if st.LayerOf(origin) == settings.LayerPolicy {
		return settings.LayerPolicy
	}
	return origin
}

// SettingsListCmd lists every key.
type SettingsListCmd struct {
	ShowOrigin bool `name:"show-origin" help:"Show where each value comes from (default or a file)."`
}

func (c *SettingsListCmd) Run(a *App) error {
	st, snap, err := a.readSettings()
	if err != nil {
		return err
	}
	return a.emit(st.Doc(snap), func(w io.Writer) {
		for _, name := range settings.Names() {
			if c.ShowOrigin {
				fmt.Fprintf(w, "%s\t", originText(st, snap.Origins[name]))
			}
			fmt.Fprintf(w, "%s = %s\n", name, formatValue(snap.Values[name]))
		}
		for _, k := range snap.Unknown {
			fmt.Fprintf(a.Stderr, "charter: note: %s is not a charter setting; it is kept as it is\n", k)
		}
	})
}

// SettingsGetCmd prints one value, alone, for scripts.
type SettingsGetCmd struct {
	Key        string `arg:"" help:"Dotted key, e.g. rules.tier."`
	ShowOrigin bool   `name:"show-origin" help:"Print where the value comes from (default, a file or policy) before it."`
}

func (c *SettingsGetCmd) Run(a *App) error {
	if _, err := settings.Known(c.Key); err != nil {
		return err
	}
	st, snap, err := a.readSettings()
	if err != nil {
		return err
	}
	if c.ShowOrigin && !a.JSON {
		fmt.Fprintf(a.Stdout, "%s\t%s\n", originText(st, snap.Origins[c.Key]), formatValue(snap.Values[c.Key]))
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
			fmt.Fprintf(w, "%s = %s (%s)\n", key, formatValue(v), origin)
		} else {
			fmt.Fprintln(w, formatValue(v))
		}
	})
}

// SettingsSetCmd writes one value.
type SettingsSetCmd struct {
	Key           string `arg:"" help:"Dotted key, e.g. rules.tier."`
	Value         string `arg:"" help:"The value; lists as a,b,c or a JSON array."`
	ConfirmShared bool   `name:"confirm-shared" help:"Write even through a link agent-switch shares between profiles."`
	LayerFlags
}

func (c *SettingsSetCmd) Run(a *App) error {
	return a.writeSettings(c.layer(), map[string]string{c.Key: c.Value}, nil, c.ConfirmShared, c.Key)
}

// SettingsUnsetCmd removes one key from the scope file.
type SettingsUnsetCmd struct {
	Key           string `arg:"" help:"Dotted key, e.g. rules.tier."`
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
	st, err := a.writeStore(layer)
	if err != nil {
		return err
	}
	var snap *settings.Snapshot
	err = a.guarded(confirmed, func(confirm bool) (err error) {
		u.ConfirmShared = confirm
		snap, err = st.Write(u)
		return err
	})
	if err != nil {
		return err
	}
	return a.printKey(snap, key, true)
}

// SettingsPathCmd prints the scope file path.
type SettingsPathCmd struct{}

func (c *SettingsPathCmd) Run(a *App) error {
	st, err := a.settingsStore()
	if err != nil {
		return err
	}
	return a.emit(map[string]string{"path": st.Path()}, func(w io.Writer) { fmt.Fprintln(w, st.Path()) })
}

// formatValue renders a value for people: lists as comma-separated items.
func formatValue(v any) string {
	switch t := v.(type) {
	case []string:
		return strings.Join(t, ",")
	case bool:
		return strconv.FormatBool(t)
	}
	return fmt.Sprint(v)
}
