package sources

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/fsys"
	"github.com/agentkit/charter/core/lazy"
)

// LockName is the file beside a layer's settings that pins its sources.
const LockName = "sources.lock"

// Pin is one source as its layer's sources.lock records it: the
// declaration, the commit taken and the sha256 of the tree taken
// (TreeHash). Committed with the project, it gives every member the
// same bytes.
type Pin struct {
	Decl
	Commit string `json:"commit"`
	Tree   string `json:"tree"`
}

// Lock is a sources.lock: sorted by name, no time stamps.
type Lock struct {
	Version int   `json:"version"`
	Sources []Pin `json:"sources"`
}

var (
	commitPattern = lazy.Regexp{Expr: `^([0-9a-f]{40}|[0-9a-f]{64})$`}
	treePattern   = lazy.Regexp{Expr: `^[0-9a-f]{64}$`}
)

// ReadLock reads the lock at path (confined to within when not ""): an
// absent file is an empty lock; one charter did not write is an error
// naming it.
func ReadLock(sys *core.System, within, path string) (*Lock, error) {
	data, err := sys.ReadWithin(within, path, fsys.KindState)
	if err != nil {
		return nil, err
	}
	l := &Lock{Version: 1, Sources: []Pin{}}
	if len(bytes.TrimSpace(data)) == 0 {
		return l, nil
	}
	bad := func(why string) error {
		return core.Errorf(core.CodeMalformedSettings, "%s: %s: fix it by hand, or remove it and run `charter sources update` to pin the sources again", path, why)
	}
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	if err := d.Decode(l); err != nil {
		return nil, bad(fmt.Sprintf("not the lock charter writes (%v)", err))
	}
	if l.Version != 1 {
		return nil, bad(fmt.Sprintf("version %d is not one this charter knows (1)", l.Version))
	}
	seen := map[string]bool{}
	for i, p := range l.Sources {
		d, err := p.Decl.Normal()
		switch {
		case err != nil:
			return nil, bad(err.Error())
		case d.Name != p.Name:
			return nil, bad(fmt.Sprintf("source %q has no valid name", p.Name))
		case seen[p.Name]:
			return nil, bad(fmt.Sprintf("source %q is pinned twice", p.Name))
		case !commitPattern.Get().MatchString(p.Commit):
			return nil, bad(fmt.Sprintf("source %q has no commit id", p.Name))
		case !treePattern.Get().MatchString(p.Tree):
			return nil, bad(fmt.Sprintf("source %q has no tree sha256", p.Name))
		}
		seen[p.Name] = true
		l.Sources[i].Decl = d
	}
	return l, nil
}

// Encode is the lock's bytes: sorted by name, indented, a final newline.
func (l *Lock) Encode() []byte {
	out := Lock{Version: 1, Sources: slices.Clone(l.Sources)}
	if out.Sources == nil {
		out.Sources = []Pin{}
	}
	slices.SortFunc(out.Sources, func(a, b Pin) int { return strings.Compare(a.Name, b.Name) })
	data, _ := json.MarshalIndent(out, "", "  ")
	return append(data, '\n')
}

// Find returns the pin named name.
func (l *Lock) Find(name string) (Pin, bool) {
	for _, p := range l.Sources {
		if p.Name == name {
			return p, true
		}
	}
	return Pin{}, false
}

// Set replaces or adds p.
func (l *Lock) Set(p Pin) {
	l.Remove(p.Name)
	l.Sources = append(l.Sources, p)
}

// Remove drops the pin named name.
func (l *Lock) Remove(name string) {
	l.Sources = slices.DeleteFunc(l.Sources, func(o Pin) bool { return o.Name == name })
}

// TrustPin is one pinned source of a project as trust counts it.
type TrustPin struct {
	Key   string // sources.NAME
	Value string // URL, ref, path and commit
	Path  string // the lock
}

// ProjectPins are the sources the project rooted at root pins in its
// .charter/sources.lock, for the project's trust hash (SPEC §13, §15).
func ProjectPins(sys *core.System, root string) ([]TrustPin, error) {
	path := sys.Paths.Join(root, core.ProjectDirName, LockName)
	l, err := ReadLock(sys, root, path)
	if err != nil {
		return nil, err
	}
	out := make([]TrustPin, 0, len(l.Sources))
	for _, p := range l.Sources {
		out = append(out, TrustPin{Key: "sources." + p.Name, Value: p.Decl.String() + " @ " + p.Commit, Path: path})
	}
	return out, nil
}
