package sources

import (
	"context"
	"slices"
	"strings"

	"github.com/agentkit/charter/core/content"
)

// Change is what an update does to one item of a source.
type Change struct {
	Kind   string `json:"kind"` // rule, skill, command, subagent, or file for what is no item
	Name   string `json:"name"` // the item's name, or the file's path
	Change string `json:"change"`
}

// The changes an update lists.
const (
	Added   = "added"
	Removed = "removed"
	Changed = "changed"
)

// itemOf names the item a file of a source's tree belongs to.
func itemOf(rel string) (kind, name string) {
	dir, rest, _ := strings.Cut(rel, "/")
	for _, k := range content.Kinds() {
		if dir != k.Dir() || rest == "" {
			continue
		}
		if k == content.KindSkill {
			n, _, _ := strings.Cut(rest, "/")
			return string(k), n
		}
		if n, ok := strings.CutSuffix(rest, ".md"); ok && !strings.Contains(n, "/") {
			return string(k), n
		}
	}
	return "file", rel
}

// Diff lists the items added, removed and changed between two trees in
// the cache (old "" : none), by kind then name. A cancelled ctx stops it
// between two files.
func (c *Cache) Diff(ctx context.Context, oldDir, newDir string) ([]Change, error) {
	group := func(dir string) (map[[2]string][]string, error) {
		out := map[[2]string][]string{}
		if dir == "" {
			return out, nil
		}
		sums, err := c.fileSums(ctx, dir)
		if err != nil {
			return nil, err
		}
		for rel, l := range sums {
			k, n := itemOf(rel)
			out[[2]string{k, n}] = append(out[[2]string{k, n}], l)
		}
		return out, nil
	}
	a, err := group(oldDir)
	if err != nil {
		return nil, err
	}
	b, err := group(newDir)
	if err != nil {
		return nil, err
	}
	var out []Change
	for key, lines := range b {
		old, ok := a[key]
		switch {
		case !ok:
			out = append(out, Change{key[0], key[1], Added})
		case sumOf(old) != sumOf(lines):
			out = append(out, Change{key[0], key[1], Changed})
		}
	}
	for key := range a {
		if _, ok := b[key]; !ok {
			out = append(out, Change{key[0], key[1], Removed})
		}
	}
	order := func(k string) int {
		if i := slices.Index(content.Kinds(), content.Kind(k)); i >= 0 {
			return i
		}
		return len(content.Kinds())
	}
	slices.SortFunc(out, func(x, y Change) int {
		if d := order(x.Kind) - order(y.Kind); d != 0 {
			return d
		}
		return strings.Compare(x.Name, y.Name)
	})
	return out, nil
}
