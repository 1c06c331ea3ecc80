package projection

import (
	"path"
	"slices"
	"strings"

	"github.com/agentkit/charter/core/agents"
	"github.com/agentkit/charter/core/content"
)

// A record, above all a committed projection.lock, is a claim, not an
// order (SPEC §12 decisions of 2026-11-27): an entry is acted on — pruned,
// taken over, counted as charter's — only when its path is one that the
// projector of its agent, kind and item produces at the record's level.
// Any other entry (".git/HEAD" as a Claude rule) is ignored: listed by
// doctor and `apply --check`, and dropped from the record by the next run.

// produces reports whether rel (slash-separated, below the level's base:
// the project root, or the agent's directory at user level) is a file the
// projector makes, or once made in a retired place, for the entry's
// agent, kind and item at level.
func produces(a agents.Agent, level string, e Recorded, rel string) bool {
	k := content.Kind(e.Kind)
	if content.CheckName(e.Item) != "" || a.Name != e.Agent {
		return false
	}
	for _, r := range a.Retired {
		if r.Level == level && r.Kind == e.Kind && rel == r.Dir+e.Item+r.Ext {
			return true
		}
	}
	place := a.At(level).Of(e.Kind)
	prefix := place.Dir
	if prefix == "" {
		return false
	}
	if k != content.KindSkill {
		return rel == prefix+e.Item+place.Ext
	}
	rest, ok := strings.CutPrefix(rel, prefix+e.Item+"/")
	return ok && rest != "" && path.Clean(rest) == rest && !strings.HasPrefix(rest, "../") &&
		rest != ".." && !strings.ContainsAny(rest, "\\\x00")
}

// claims reports whether the request's level may act on e. At user level
// the entry's absolute path must lie in its agent's directory (Bases).
func (r Request) claims(e Recorded) bool {
	table := r.Table
	if table == nil {
		table = agents.Default()
	}
	i := slices.IndexFunc(table, func(a agents.Agent) bool { return a.Name == e.Agent })
	if i < 0 {
		return false
	}
	a := table[i]
	if r.Root != "" {
		return produces(a, content.LevelProject, e, e.Path)
	}
	base := r.Bases[e.Agent]
	if base == "" {
		return false
	}
	rel, ok := strings.CutPrefix(strings.ReplaceAll(e.Path, "\\", "/"), strings.TrimSuffix(strings.ReplaceAll(base, "\\", "/"), "/")+"/")
	return ok && produces(a, content.LevelUser, e, rel)
}

// Ignored is a record entry no projector can produce: charter does not act
// on it, and the next run drops it.
type Ignored struct {
	Path  string `json:"path"`
	Kind  string `json:"kind"`
	Item  string `json:"item"`
	Agent string `json:"agent"`
}

// split parts the old record into the entries the request may act on and
// the ones it ignores.
func (r Request) split(old Record) (Record, []Ignored) {
	keep := Record{Version: old.Version, Files: make([]Recorded, 0, len(old.Files))}
	var out []Ignored
	for _, e := range old.Files {
		if r.claims(e) {
			keep.Files = append(keep.Files, e)
			continue
		}
		out = append(out, Ignored{Path: e.Path, Kind: e.Kind, Item: e.Item, Agent: e.Agent})
	}
	return keep, out
}
