package commands

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/agentkit/charter/core/content"
	"github.com/agentkit/charter/core/inert"
	"github.com/agentkit/charter/core/session"
)

// The rules, skills, commands and subagents groups (rules.go, skills.go,
// commandscmd.go, subagents.go) share list, show and new, here.

// library reads this run's settings and every content source (SPEC §12):
// the scope's, the project's and the policy folder's.
func (a *App) library(ctx context.Context) (*content.Library, content.Selection, error) {
	return a.session().Library(ctx)
}

// commandOf is the command group of a kind.
func commandOf(k content.Kind) string {
	if k == content.KindSubagent {
		return "subagents"
	}
	return k.Dir()
}

type listDoc struct {
	Items []session.ContentItem `json:"items"`
}

// listContent lists a kind; with path (rules only) the rules that apply
// to that file, the same filter as MCP's rules_list, and the same path: a
// relative one is taken from the project root.
func (a *App) listContent(ctx context.Context, k content.Kind, path string) error {
	items, err := a.session().ContentList(ctx, k, path)
	if err != nil {
		return err
	}
	doc := listDoc{Items: items}
	return a.emit(doc, func(w io.Writer) {
		if len(doc.Items) == 0 && path != "" {
			fmt.Fprintf(w, "no rule in effect applies to %s\n", inert.Line(path))
			return
		}
		if len(doc.Items) == 0 {
			fmt.Fprintf(w, "no %s yet: add one with `charter %s new NAME` (--project for the repository's)\n", k.Dir(), commandOf(k))
			return
		}
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		head := "NAME\tSTATE\tLEVEL\tORIGIN\tDESCRIPTION"
		if k == content.KindRule {
			head = "NAME\tTIER\tSTATE\tLEVEL\tORIGIN\tDESCRIPTION"
		}
		fmt.Fprintln(tw, head)
		for _, e := range doc.Items {
			cols := []string{e.Name, e.State, e.Level, originOf(e.Item), description(e.Description)}
			if k == content.KindRule {
				cols = append([]string{e.Name, e.Tier}, cols[1:]...)
			}
			for i := range cols {
				cols[i] = inert.Line(cols[i]) // a raw tab would also split the cell
			}
			fmt.Fprintln(tw, strings.Join(cols, "\t"))
		}
		tw.Flush()
	})
}

// showContent prints `show`: the entry, its body and a skill's other files.
func (a *App) showContent(ctx context.Context, k content.Kind, name string) error {
	doc, err := a.session().ContentShow(ctx, k, name)
	if err != nil {
		return err
	}
	e := doc.Entry
	return a.emit(doc, func(w io.Writer) {
		field := func(label, v string) {
			if v != "" {
				fmt.Fprintf(w, "%-13s %s\n", label+":", inert.Line(v))
			}
		}
		field("name", e.Name)
		field("kind", string(e.Kind))
		field("state", e.State)
		field("tier", e.Tier)
		field("level", e.Level)
		field("origin", e.Path)
		field("description", description(e.Description))
		field("globs", strings.Join(e.Globs, ", "))
		field("agents", strings.Join(e.Agents, ", "))
		field("argument-hint", e.ArgHint)
		field("tools", strings.Join(e.Tools, ", "))
		field("model", e.Model)
		field("files", strings.Join(doc.Files, ", "))
		fmt.Fprintln(w)
		io.WriteString(w, inert.Body(doc.Body))
	})
}

// description is an item's description for one line: the blank lines
// around a YAML block go, a line break inside it is shown (inert.Line).
func description(s string) string { return strings.TrimSpace(s) }

// NewFlags choose where `new` writes the source.
type NewFlags struct {
	Project bool `name:"project" help:"Write it into the project's .charter/ (committed with the repository) instead of this scope's folder."`
}

// newDoc names the new item's source file its origin, as list does.
type newDoc struct {
	Kind   content.Kind `json:"kind"`
	Name   string       `json:"name"`
	Origin string       `json:"origin"`
}

func (a *App) newContent(ctx context.Context, k content.Kind, name string, f NewFlags) error {
	path, err := a.session().NewSource(ctx, k, name, f.Project)
	if err != nil {
		return err
	}
	return a.emit(newDoc{Kind: k, Name: name, Origin: path}, func(w io.Writer) {
		fmt.Fprintf(w, "created %s: describe the %s in it, then run `charter apply`\n", inert.Line(path), k)
	})
}

// itemNames completes the names of a kind's items in effect here; nothing
// when the sources cannot be read (completion never prints an error).
func itemNames(a *App, k content.Kind) []candidate {
	lib, sel, err := a.library(context.Background()) // completion: no run to cancel
	if err != nil {
		return nil
	}
	var out []candidate
	for _, e := range lib.Effective("", sel) {
		if e.Kind == k {
			out = append(out, candidate{e.Name, e.Description})
		}
	}
	return out
}

// originOf is an item's origin as lists show it: its file, or for a shared
// source's item the source's URL, pinned commit and folder (SPEC §15).
func originOf(it content.Item) string {
	src := it.Source
	if src == nil {
		return it.Path
	}
	o := src.URL + "@" + short12(src.Commit)
	if src.Path != "" {
		o += ":" + src.Path
	}
	return o
}
