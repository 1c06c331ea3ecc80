package doctor

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/agentkit/charter/core/apply"
	"github.com/agentkit/charter/core/content"
	"github.com/agentkit/charter/core/fsys"
	"github.com/agentkit/charter/core/gates"
	"github.com/agentkit/charter/core/lazy"
	"github.com/agentkit/charter/core/projection"
)

// agentGates: whether the agents act on what charter wrote where an agent
// keeps a gate of its own, which a headless run passes over without a
// word. Codex runs charter's Stop hook only once the user has reviewed it
// (a project's only in a trusted project); Gemini CLI registers a project
// subagent only once the user has acknowledged it.
func agentGates(r *run) []Check {
	if r.scopeErr != nil {
		return nil
	}
	return append(codexReviews(r), geminiAcks(r)...)
}

// codexReviews: one line per hooks.json that holds charter's entry (user
// level, and inside a project the project's), read as the file is now.
func codexReviews(r *run) []Check {
	var targets []apply.Target
	if full, _ := r.plan(); full != nil {
		targets = full.Targets
	}
	targets = append(targets[:len(targets):len(targets)], r.projectPlan()...)
	var out []Check
	for _, t := range targets {
		if kind, isHook := t.StopHook(); !isHook || kind != gates.CodexStop || t.Old == nil {
			continue
		}
		project, n, l := "", "codex-hook-review", "Codex hook review"
		if t.Level == apply.LevelProject && r.project != nil {
			project, n, l = r.project.Dir, n+":project", l+" (project)"
		}
		st, found := apply.CodexHookState(r.Sys, t.Path, t.Old, project)
		if !found {
			continue
		}
		notes := st.Notes()
		if len(notes) == 0 {
			out = append(out, ok(n, l, fmt.Sprintf("%s: Codex runs charter's Stop hook (reviewed in %s)", t.Path, st.Config)))
		}
		for _, note := range notes {
			if note.Code == apply.NoteCodexProjectUntrusted {
				out = append(out, warn("codex-project-trust", "Codex project trust", note.Message, note.Fix))
				continue
			}
			out = append(out, warn(n, l, note.Message, note.Fix))
		}
	}
	return out
}

// geminiAgentsFile is where Gemini CLI 0.61 keeps the acknowledgments, in
// its user directory: {"<project root>": {"<agent name>": "<sha256 hex of
// the file>"}} (packages/core/src/agents/acknowledgedAgents.ts; its user
// directory is $GEMINI_CLI_HOME/.gemini when that is set, which charter
// does not read: it writes Gemini's user files below $HOME too).
var geminiAgentsFile = []string{".gemini", "acknowledgments", "agents.json"}

// geminiFrontmatter is Gemini CLI's FRONTMATTER_REGEX.
var geminiFrontmatter = lazy.Regexp{Expr: `^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)`}

// geminiAcks: inside a project, whether Gemini CLI registers each subagent
// charter projects into .gemini/agents/. It registers a project agent only
// when the user's acknowledgments map the project root (the directory
// Gemini starts in) and the agent's name to the sha256 of its file as it
// is; it skips the others, silently in a headless run.
func geminiAcks(r *run) []Check {
	if r.project == nil || r.projectFull == nil || r.projectFull.Content == nil {
		return nil
	}
	var files []projection.Entry
	for _, e := range r.projectFull.Content.Entries {
		if e.Kind == string(content.KindSubagent) && e.Agent == "gemini" && e.Path != nil && e.State != projection.StatePruned {
			files = append(files, e)
		}
	}
	if len(files) == 0 {
		return nil
	}
	const name, label = "gemini-subagents", "Gemini subagents"
	root := r.project.Dir
	home, err := r.Sys.Home()
	if err != nil {
		return []Check{warn(name, label, "not checked: "+err.Error(), "set HOME")}
	}
	ackPath := r.Sys.Paths.Join(append([]string{home}, geminiAgentsFile...)...)
	acks, err := readGeminiAcks(r, ackPath, root)
	if err != nil {
		return []Check{warn(name, label, "not checked: "+err.Error(), "fix or remove "+ackPath+" (Gemini CLI asks again for each project subagent)")}
	}
	fix := "run `gemini` in " + root + " and choose \"Acknowledge and Enable\" at \"New Agents Discovered\"; the acknowledgment is bound to the file's content, so a changed subagent needs a new one"
	var out []Check
	n := 0
	for _, e := range files {
		f := *e.Path
		data, err := r.Sys.ReadWithin(root, f, fsys.KindContent)
		if err != nil || data == nil {
			continue // the projected files' line says what is wrong with it
		}
		agent, named := geminiAgentName(data)
		if !named {
			continue // Gemini rejects it; the projection reports that
		}
		sum := sha256.Sum256(data)
		switch got, earlier := acks[agent]; {
		case got == hex.EncodeToString(sum[:]):
			n++
		case earlier:
			out = append(out, warn("gemini-subagent:"+e.Item, "Gemini subagent",
				fmt.Sprintf("Gemini CLI skips the subagent %s (%s) until you acknowledge it again: %s acknowledges an earlier version of the file", agent, f, ackPath), fix))
		default:
			out = append(out, warn("gemini-subagent:"+e.Item, "Gemini subagent",
				fmt.Sprintf("Gemini CLI skips the subagent %s (%s) until you acknowledge it: %s holds no acknowledgment of it for %s", agent, f, ackPath, root), fix))
		}
	}
	if len(out) == 0 && n > 0 {
		out = append(out, ok(name, label, fmt.Sprintf("%d project subagents acknowledged in %s", n, ackPath)))
	}
	return out
}

// readGeminiAcks is the acknowledgments of the project at root: under its
// real path (Gemini's working directory has its links resolved), else as
// charter names it. A missing file acknowledges nothing.
func readGeminiAcks(r *run, path, root string) (map[string]string, error) {
	data, err := r.Sys.ReadOptional(path, fsys.KindAgentJSON)
	if err != nil || data == nil {
		return nil, err
	}
	var all map[string]map[string]any
	if err := json.Unmarshal(data, &all); err != nil {
		return nil, fmt.Errorf("%s is not the JSON Gemini CLI writes: %w", path, err)
	}
	keys := []string{root}
	if real, err := r.Sys.RealPath(root); err == nil && real != root {
		keys = []string{real, root}
	}
	for _, k := range keys {
		if m, ok := all[k]; ok {
			acks := map[string]string{}
			for name, v := range m {
				acks[name], _ = v.(string)
			}
			return acks, nil
		}
	}
	return nil, nil
}

// geminiAgentName is the name in a subagent file's frontmatter, as Gemini
// CLI reads it; false without one.
func geminiAgentName(data []byte) (string, bool) {
	// A BOM stays, as in Gemini: the frontmatter must open the file.
	m := geminiFrontmatter.Get().FindSubmatch(data)
	if m == nil {
		return "", false
	}
	var fm struct {
		Name string `yaml:"name"`
	}
	if yaml.Unmarshal(m[1], &fm) != nil || fm.Name == "" {
		return "", false
	}
	return fm.Name, true
}
