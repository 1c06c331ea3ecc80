package projection

import (
	"path"
	"strings"

	"github.com/agentkit/charter/core/content"
)

// A record, above all a committed projection.lock, is a claim, not an
// order (SPEC §12 decisions of 2026-11-27): an entry is acted on — pruned,
// taken over, counted as charter's — only when its path is one that the
// projector of its agent, kind and item produces at the record's level.
// Any other entry (".git/HEAD" as a Claude rule) is ignored: listed by
// doctor and `apply --check`, and dropped from the record by the next run.

// fileName is the file an agent keeps a rule, command or subagent in at
// prefix; skills are folders and have none.
func fileName(agent string, k content.Kind, prefix, item string) string {
	ext := ".md"
	switch {
	case k == content.KindRule && agent == "cursor":
		ext = ".mdc"
	case k == content.KindRule && agent == "copilot":
		ext = ".instructions.md"
	case k == content.KindCommand && agent == "gemini", k == content.KindSubagent && agent == "codex":
		ext = ".toml"
	case k == content.KindSubagent && agent == "copilot":
		ext = ".agent.md"
	}
	return prefix + item + ext
}

// retired are the places an agent read once and reads no more. Nothing
// is projected there, but a file charter recorded there is still its own:
// it is claimed, so that apply prunes it (the agent ignores it) rather
// than ignore the entry and leave the file behind for good.
var retired = []struct {
	agent, level string
	kind         content.Kind
	prefix, ext  string
}{
	// Codex dropped custom prompts in 0.117; 0.169 reads no prompts/.
	{"codex", content.LevelUser, content.KindCommand, "prompts/", ".md"},
	// Copilot CLI reads no prompt files; its commands are .claude/commands/.
	{"copilot", content.LevelProject, content.KindCommand, ".github/prompts/", ".prompt.md"},
}

// produces reports whether rel (slash-separated, below the level's base:
// the project root, or the agent's directory at user level) is a file the
// projector makes, or once made in a retired place, for the entry's
// agent, kind and item at level.
func produces(level string, e Recorded, rel string) bool {
	k := content.Kind(e.Kind)
	if content.CheckName(e.Item) != "" {
		return false
	}
	for _, r := range retired {
		if r.agent == e.Agent && r.level == level && r.kind == k && rel == r.prefix+e.Item+r.ext {
			return true
		}
	}
	prefix, _ := Layout(e.Agent, level, k)
	if prefix == "" {
		return false
	}
	if k != content.KindSkill {
		return rel == fileName(e.Agent, k, prefix, e.Item)
	}
	rest, ok := strings.CutPrefix(rel, prefix+e.Item+"/")
	return ok && rest != "" && path.Clean(rest) == rest && !strings.HasPrefix(rest, "../") &&
		rest != ".." && !strings.ContainsAny(rest, "\\\x00")
}

// claims reports whether the request's level may act on e. At user level
// the entry's absolute path must lie in its agent's directory (Bases).
func (r Request) claims(e Recorded) bool {
	if r.Root != "" {
		return produces(content.LevelProject, e, e.Path)
	}
	base := r.Bases[e.Agent]
	if base == "" {
		return false
	}
	rel, ok := strings.CutPrefix(strings.ReplaceAll(e.Path, "\\", "/"), strings.TrimSuffix(strings.ReplaceAll(base, "\\", "/"), "/")+"/")
	return ok && produces(content.LevelUser, e, rel)
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
