package commands

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
	"go.yaml.in/yaml/v3"
)

// PeersVar names an npm prefix holding ruler and rulesync at the versions
// .ci/run pins, for the moves_*.txtar scripts (SPEC §16: moving in from a
// peer tool, moving out with uninstall).
const PeersVar = "CHARTER_PEERS"

// peerBins are the tools' entry scripts inside the prefix.
var peerBins = map[string]string{
	"ruler":    "node_modules/@intellectronica/ruler/dist/cli/index.js",
	"rulesync": "node_modules/rulesync/dist/cli/index.js",
}

// peersReady reports whether both tools and node are there; under CI it
// is an error that they are not (.ci/run installs them).
func peersReady() (bool, error) {
	dir := os.Getenv(PeersVar)
	_, nodeErr := exec.LookPath("node")
	ok := dir != "" && nodeErr == nil
	for _, bin := range peerBins {
		if _, err := os.Stat(filepath.Join(dir, bin)); err != nil {
			ok = false
		}
	}
	if !ok && os.Getenv("CI") == "true" {
		return false, fmt.Errorf("ruler and rulesync are missing: .ci/run installs them into %s (node on PATH)", PeersVar)
	}
	return ok, nil
}

// cmdPeer runs ruler or rulesync with node from the script's directory:
// peer ruler apply
func cmdPeer(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 1 || peerBins[args[0]] == "" {
		ts.Fatalf("usage: peer ruler|rulesync args...")
	}
	node, err := exec.LookPath("node")
	ts.Check(err)
	cmd := exec.Command(node, append([]string{filepath.Join(os.Getenv(PeersVar), peerBins[args[0]])}, args[1:]...)...)
	cmd.Dir = ts.MkAbs(".")
	cmd.Env = append(os.Environ(), "HOME="+ts.Getenv("HOME"), "NO_COLOR=1")
	out, err := cmd.CombinedOutput()
	if (err != nil) != neg {
		ts.Fatalf("%s %s: %v\n%s", args[0], strings.Join(args[1:], " "), err, out)
	}
}

// cmdAgentView writes what each agent reads at a level, parsed: its
// always-loaded instruction paragraphs, and every rule, command, skill
// and subagent with its scope, frontmatter keys and body:
// agentview DIR claude,codex FILE
// DIR is the repository, or the home folder for the user level.
func cmdAgentView(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: agentview DIR AGENTS FILE")
	}
	dir := ts.MkAbs(args[0])
	var lines []string
	for _, a := range strings.Split(args[1], ",") {
		for _, l := range agentView(dir, a) {
			lines = append(lines, a+" "+l)
		}
	}
	sort.Strings(lines)
	ts.Check(os.WriteFile(ts.MkAbs(args[2]), []byte(strings.Join(lines, "\n")+"\n"), 0o644))
}

// cmdSameMeaning checks a move: every item of BEFORE is in AFTER with the
// same scope, keys and body, and every always-loaded paragraph of BEFORE
// is loaded exactly as often after (charter's block may add its own). An
// item new to an agent is one another agent read before, the same.
func cmdSameMeaning(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: [!] samemeaning BEFORE AFTER")
	}
	read := func(p string) map[string]int {
		data, err := os.ReadFile(ts.MkAbs(p))
		ts.Check(err)
		out := map[string]int{}
		for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			out[l]++
		}
		return out
	}
	before, after := read(args[0]), read(args[1])
	var lost []string
	for l, n := range before {
		if after[l] != n {
			lost = append(lost, fmt.Sprintf("%dx before, %dx after: %s", n, after[l], l))
		}
	}
	bodies := map[string]bool{} // a scoped or asked-for item's body, as a paragraph
	shared := map[string]bool{} // every item before, whoever read it
	for l := range before {
		_, item, _ := strings.Cut(l, " ")
		shared[item] = true
		if _, b, ok := strings.Cut(l, " body="); ok && !strings.Contains(l, " para ") {
			agent, _, _ := strings.Cut(l, " ")
			bodies[agent+" para "+b] = true
		}
	}
	for l := range after {
		_, item, _ := strings.Cut(l, " ")
		switch {
		case before[l] == 0 && !strings.Contains(l, " para ") && shared[item]:
			// Another agent's item, with its scope and body: what applying
			// for both agents means (one source, every selected agent).
		case before[l] == 0 && !strings.Contains(l, " para "):
			lost = append(lost, "new after the move: "+l)
		case before[l] == 0 && bodies[l]:
			lost = append(lost, "loaded always after the move: "+l)
		}
	}
	if neg {
		if len(lost) == 0 {
			ts.Fatalf("the agents read the same after the move")
		}
		return
	}
	if len(lost) > 0 {
		sort.Strings(lost)
		ts.Fatalf("the agents read something else after the move:\n%s", strings.Join(lost, "\n"))
	}
}

// view is where an agent reads what at the level under dir.
type view struct {
	always []string // files loaded whole
	rules  []string // folders of rule files (frontmatter decides)
	kinds  map[string][]string
}

var agentReads = map[string]view{
	"claude": {always: []string{"CLAUDE.md", ".claude/CLAUDE.md"}, rules: []string{".claude/rules"},
		kinds: map[string][]string{"command": {".claude/commands"}, "skill": {".claude/skills"}, "subagent": {".claude/agents"}}},
	"codex":  {always: []string{"AGENTS.md", ".codex/AGENTS.md"}, kinds: map[string][]string{"skill": {".agents/skills"}, "prompt": {".codex/prompts"}}},
	"cursor": {always: []string{"AGENTS.md"}, rules: []string{".cursor/rules"}, kinds: map[string][]string{"command": {".cursor/commands"}, "skill": {".cursor/skills", ".agents/skills"}, "subagent": {".cursor/agents"}}},
	"copilot": {always: []string{"AGENTS.md", ".github/copilot-instructions.md"}, rules: []string{".github/instructions"},
		kinds: map[string][]string{"command": {".github/prompts"}, "skill": {".github/skills", ".agents/skills"}, "subagent": {".github/agents"}}},
}

func agentView(dir, agent string) []string {
	v := agentReads[agent]
	var out []string
	seen := map[string]bool{}
	for _, f := range v.always {
		if data, err := os.ReadFile(filepath.Join(dir, f)); err == nil {
			out = append(out, paragraphs(string(data))...)
		}
	}
	for _, d := range v.rules {
		files, _ := filepath.Glob(filepath.Join(dir, d, "*"))
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				continue
			}
			front, body := splitDoc(string(data))
			scope := ruleScope(front)
			if scope == "always" {
				out = append(out, paragraphs(body)...)
				continue
			}
			out = append(out, "rule "+scope+" body="+quote(strings.TrimSpace(body)))
		}
	}
	for kind, dirs := range v.kinds {
		for _, d := range dirs {
			files, _ := filepath.Glob(filepath.Join(dir, d, "*"))
			for _, f := range files {
				name := itemName(filepath.Base(f))
				if fi, err := os.Stat(f); err == nil && fi.IsDir() {
					f = filepath.Join(f, "SKILL.md")
				}
				data, err := os.ReadFile(f)
				if err != nil || seen[kind+name] {
					continue
				}
				seen[kind+name] = true
				front, body := splitDoc(string(data))
				out = append(out, kind+" "+name+" "+keys(front)+" body="+quote(strings.TrimSpace(body)))
			}
		}
	}
	return out
}

// itemName is a file's item name: without .md, .mdc, .prompt.md, .agent.md.
func itemName(base string) string {
	for _, ext := range []string{".prompt.md", ".agent.md", ".instructions.md", ".md", ".mdc", ".toml"} {
		if n, ok := strings.CutSuffix(base, ext); ok {
			return n
		}
	}
	return base
}

// paragraphs are an instruction text's paragraphs, HTML comments (charter's
// markers, ruler's source lines) aside.
func paragraphs(text string) []string {
	var out []string
	for _, p := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n\n") {
		var keep []string
		for _, l := range strings.Split(p, "\n") {
			if t := strings.TrimSpace(l); t != "" && !(strings.HasPrefix(t, "<!--") && strings.HasSuffix(t, "-->")) {
				keep = append(keep, l)
			}
		}
		if len(keep) > 0 {
			out = append(out, "para "+quote(strings.Join(keep, "\n")))
		}
	}
	return out
}

func splitDoc(s string) (front map[string]any, body string) {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	rest, ok := strings.CutPrefix(s, "---\n")
	if !ok {
		return nil, s
	}
	i := strings.Index(rest, "\n---\n")
	if i < 0 {
		return nil, s
	}
	raw := rest[:i]
	front = map[string]any{}
	if yaml.Unmarshal([]byte(raw), &front) != nil {
		// Cursor's unquoted globs are no YAML: read key: value lines.
		front = map[string]any{}
		for _, l := range strings.Split(raw, "\n") {
			if k, v, ok := strings.Cut(l, ":"); ok && !strings.HasPrefix(l, " ") {
				front[strings.TrimSpace(k)] = strings.TrimSpace(v)
			}
		}
	}
	return front, rest[i+len("\n---\n"):]
}

// ruleScope is how the agent loads a rule file: always, by globs, or
// when asked (a Cursor rule with neither).
func ruleScope(front map[string]any) string {
	for _, k := range []string{"paths", "globs", "applyTo"} {
		if g := list(front[k]); len(g) > 0 && !slices.Equal(g, []string{"**"}) && !slices.Equal(g, []string{"**/*"}) {
			return "globs=" + strings.Join(g, ",")
		}
	}
	if a, ok := front["alwaysApply"]; ok && a != true && a != "true" {
		return "requested description=" + fmt.Sprint(front["description"])
	}
	return "always"
}

func list(v any) []string {
	var out []string
	switch t := v.(type) {
	case string:
		for _, s := range strings.Split(t, ",") {
			if s = strings.Trim(strings.TrimSpace(s), `"'`); s != "" {
				out = append(out, s)
			}
		}
	case []any:
		for _, s := range t {
			out = append(out, list(fmt.Sprint(s))...)
		}
	}
	sort.Strings(out)
	return out
}

// keys is the frontmatter as sorted key=value pairs, lists normalised.
func keys(front map[string]any) string {
	var kv []string
	for k, v := range front {
		switch t := v.(type) {
		case []any:
			if k == "argument-hint" { // Claude reads it as text: [focus area]
				kv = append(kv, k+"="+quote("["+strings.Join(list(t), ", ")+"]"))
				continue
			}
			kv = append(kv, k+"="+strings.Join(list(v), ","))
		default:
			kv = append(kv, k+"="+quote(fmt.Sprint(v)))
		}
	}
	sort.Strings(kv)
	return "{" + strings.Join(kv, " ") + "}"
}

func quote(s string) string { return fmt.Sprintf("%q", s) }
