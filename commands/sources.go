package commands

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/errcode"
	"github.com/agentkit/charter/core/inert"
	"github.com/agentkit/charter/core/session"
	"github.com/agentkit/charter/core/settings"
	"github.com/agentkit/charter/core/sources"
)

// SourcesCmd groups the shared sources commands (SPEC §15).
type SourcesCmd struct {
	Add    SourcesAddCmd    `cmd:"" help:"Declare a git repository of rules, skills, commands and subagents, fetch it and pin its commit."`
	Update SourcesUpdateCmd `cmd:"" help:"Move sources to their ref's current commit, showing the items added, removed and changed."`
	List   SourcesListCmd   `cmd:"" help:"List the sources with their pins and whether the last fetch saw an update."`
	Remove SourcesRemoveCmd `cmd:"" help:"Drop a source from its layer and its lock."`
}

// SourceLayerFlags choose the layer that declares a source.
type SourceLayerFlags struct {
	Project       bool `name:"project" xor:"layer" help:"The project's .charter/settings.yaml and .charter/sources.lock (committed: the team's)."`
	Global        bool `name:"global" xor:"layer" help:"Your own settings of this scope and its sources.lock (every project you work in)."`
	ConfirmShared bool `name:"confirm-shared" help:"Write even if the file lies behind a link agent-switch shares between profiles."`
}

func (f SourceLayerFlags) layer(def string) string {
	switch {
	case f.Project:
		return settings.LayerProject
	case f.Global:
		return settings.LayerScope
	}
	return def
}

// SourcesAddCmd declares and pins a source.
type SourcesAddCmd struct {
	URL  string `arg:"" name:"url" help:"What git clone accepts: https, ssh, file:// or a local path."`
	Ref  string `name:"ref" placeholder:"REF" help:"The branch, tag or commit to take (default: the remote's default branch)."`
	Path string `name:"path" placeholder:"DIR" help:"The repository's folder that holds rules/, skills/, commands/ and subagents/ (default: its root)."`
	Name string `name:"name" placeholder:"NAME" help:"The source's name (default: the repository's)."`
	SourceLayerFlags
}

func (c *SourcesAddCmd) Run(ctx context.Context, a *App) error {
	u := c.URL
	if isLocalPath(u) && !filepath.IsAbs(u) {
		// git runs in the cache: a relative path would name another place.
		wd, err := a.Sys.Getwd()
		if err != nil {
			return fmt.Errorf("find the working directory for %s: %w", u, err)
		}
		u = filepath.Join(wd, u)
	}
	d, err := sources.Decl{Name: c.Name, URL: u, Ref: c.Ref, Path: c.Path}.Normal()
	if err != nil {
		return err
	}
	var res session.SourceUpdate
	err = a.guarded(c.ConfirmShared, func(confirm bool) (err error) {
		res, err = a.session().SourcesAdd(ctx, c.layer(settings.LayerScope), d, confirm)
		return err
	})
	if err != nil {
		return err
	}
	return a.emit(res, func(w io.Writer) {
		fmt.Fprintf(w, "Added %s at %s (%s); %d items:\n", inert.Line(res.Name), short12(res.To), inert.Line(res.URL), len(res.Changes))
		printChanges(w, res)
		fmt.Fprintln(w, "Run `charter apply` (--project for the project's) to project them.")
	})
}

// isLocalPath: not a URL (scheme://) nor scp-like host:path.
func isLocalPath(u string) bool {
	if strings.Contains(u, "://") {
		return false
	}
	colon, slash := strings.Index(u, ":"), strings.Index(u, "/")
	return colon < 0 || (slash >= 0 && slash < colon) || filepath.VolumeName(u) != ""
}

// SourcesUpdateCmd moves sources to their ref's current commit.
type SourcesUpdateCmd struct {
	Name   string `arg:"" optional:"" help:"The source to update (default: every one of the layers)."`
	DryRun bool   `name:"dry-run" help:"Fetch and show what would change; write nothing."`
	Policy bool   `name:"policy" xor:"layer" help:"Pin the sources the policy file declares, in the sources.lock beside it (for whoever manages the policy; the policy file is never written)."`
	SourceLayerFlags
}

type sourcesUpdateDoc struct {
	Updates []session.SourceUpdate `json:"updates"`
	DryRun  bool                   `json:"dryRun"`
}

func (c *SourcesUpdateCmd) Run(ctx context.Context, a *App) error {
	var ups []session.SourceUpdate
	err := a.guarded(c.ConfirmShared, func(confirm bool) (err error) {
		layer := c.layer("")
		if c.Policy {
			layer = settings.LayerPolicy
		}
		ups, err = a.session().SourcesUpdate(ctx, layer, c.Name, c.DryRun, confirm)
		return err
	})
	if err != nil {
		return err
	}
	return a.emit(sourcesUpdateDoc{Updates: ups, DryRun: c.DryRun}, func(w io.Writer) {
		if len(ups) == 0 {
			fmt.Fprintln(w, "Every source is at its ref's current commit.")
		}
		for _, u := range ups {
			verb := "Updated"
			if c.DryRun {
				verb = "Would update"
			}
			switch {
			case u.To == "":
				fmt.Fprintf(w, "%s %s: dropped the pin of %s, no longer declared\n", verb, inert.Line(u.Name), short12(u.From))
			case u.From == "":
				fmt.Fprintf(w, "%s %s: pinned %s\n", verb, inert.Line(u.Name), short12(u.To))
			default:
				fmt.Fprintf(w, "%s %s: %s -> %s\n", verb, inert.Line(u.Name), short12(u.From), short12(u.To))
			}
			printChanges(w, u)
		}
	})
}

func printChanges(w io.Writer, u session.SourceUpdate) {
	sign := map[string]string{sources.Added: "+", sources.Removed: "-", sources.Changed: "~"}
	for _, ch := range u.Changes {
		fmt.Fprintf(w, "  %s %s %s\n", sign[ch.Change], ch.Kind, inert.Line(ch.Name))
	}
}

func short12(c string) string {
	if len(c) > 12 {
		return c[:12]
	}
	return c
}

// SourcesListCmd lists the sources.
type SourcesListCmd struct{}

type sourcesListDoc struct {
	Sources []session.SourceEntry `json:"sources"`
}

func (c *SourcesListCmd) Run(ctx context.Context, a *App) error {
	es, err := a.session().SourcesList(ctx)
	if err != nil {
		return err
	}
	return a.emit(sourcesListDoc{Sources: es}, func(w io.Writer) {
		if len(es) == 0 {
			fmt.Fprintln(w, "no shared source yet: add one with `charter sources add URL` (--project for the team's)")
			return
		}
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "NAME\tLAYER\tURL\tREF\tPATH\tCOMMIT\tSTATE")
		for _, e := range es {
			state := "pinned"
			switch {
			case e.Commit == "":
				state = "not pinned: run charter sources update"
			case !e.Cached:
				state = "not in the cache (fetched on the next apply)"
			case e.Update:
				state = "update available: " + short12(e.Latest)
			}
			cols := []string{e.Name, e.Layer, e.URL, orDash(e.Ref), orDash(e.Path), orDash(short12(e.Commit)), state}
			for i := range cols {
				cols[i] = inert.Line(cols[i])
			}
			fmt.Fprintln(tw, strings.Join(cols, "\t"))
		}
		tw.Flush()
	})
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// SourcesRemoveCmd drops a source.
type SourcesRemoveCmd struct {
	Name string `arg:"" help:"The source's name, as sources list shows it."`
	SourceLayerFlags
}

func (c *SourcesRemoveCmd) Run(ctx context.Context, a *App) error {
	var res session.SourceUpdate
	err := a.guarded(c.ConfirmShared, func(confirm bool) (err error) {
		res, err = a.session().SourcesRemove(ctx, c.layer(""), c.Name, confirm)
		return err
	})
	if err != nil {
		return err
	}
	if res.Name == "" {
		return errcode.Errorf(core.CodeNotFound, "no source named %s is declared there: `charter sources list` shows them", c.Name)
	}
	return a.emit(res, func(w io.Writer) {
		fmt.Fprintf(w, "Removed %s (%s). Run `charter apply` (--project for the project's) to prune its items.\n", inert.Line(res.Name), inert.Line(res.URL))
	})
}
