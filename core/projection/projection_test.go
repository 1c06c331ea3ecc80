package projection_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/content"
	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/projection"
)

func library() []content.Item {
	return []content.Item{
		{Kind: content.KindRule, Name: "go-style", Description: "Go \"style\"\n---\nevil: true", Globs: []string{"**/*.go"}, Body: []byte("Use gofmt.\n")},
		{Kind: content.KindRule, Name: "always", Description: "always on", Body: []byte("Be kind.\n")},
		{Kind: content.KindSkill, Name: "deploy", Description: "Deploys", Front: []byte("name: deploy\ndescription: Deploys\n"), Body: []byte("Steps.\n"),
			Files: []content.File{{Rel: "scripts/run.sh", Data: []byte("#!/bin/sh\n"), Exec: true}}},
		{Kind: content.KindCommand, Name: "review", Description: "Review", ArgHint: "[pr]", Body: []byte("Review $ARGUMENTS '''\"\"\" \\ end\"")},
		{Kind: content.KindSubagent, Name: "tester", Description: "Tests", Tools: []string{"Read", "Bash"}, Model: "sonnet", Body: []byte("You test.\n")},
	}
}

func TestProjectorsAllAgents(t *testing.T) {
	for _, level := range []string{content.LevelUser, content.LevelProject} {
		for _, agent := range []string{"claude", "codex", "gemini", "cursor", "copilot"} {
			a := projection.Project(agentNamed(agent), library(), projection.Options{Level: level, Autoload: true})
			b := projection.Project(agentNamed(agent), library(), projection.Options{Level: level, Autoload: true})
			if len(a.Files) != len(b.Files) {
				t.Fatalf("%s/%s: not deterministic", agent, level)
			}
			for i := range a.Files {
				if a.Files[i].Rel != b.Files[i].Rel || !bytes.Equal(a.Files[i].Data, b.Files[i].Data) {
					t.Fatalf("%s/%s: %s differs between runs", agent, level, a.Files[i].Rel)
				}
				checkFormat(t, a.Files[i])
			}
			if len(a.Files)+len(a.Gaps)+len(a.BlockRules) < 5 {
				t.Errorf("%s/%s: an item was dropped silently: %d files, %d gaps, %d block rules", agent, level, len(a.Files), len(a.Gaps), len(a.BlockRules))
			}
		}
	}
}

// checkFormat parses what it can: TOML must decode to the body, YAML
// frontmatter must not gain keys from a hostile description.
func checkFormat(t *testing.T, f projection.File) {
	t.Helper()
	s := string(f.Data)
	if strings.HasSuffix(f.Rel, ".toml") {
		var v map[string]any
		if _, err := toml.Decode(s, &v); err != nil {
			t.Fatalf("%s: invalid TOML: %v\n%s", f.Rel, err, s)
		}
		if p, ok := v["prompt"].(string); ok {
			want := strings.ReplaceAll("Review $ARGUMENTS '''\"\"\" \\ end\"", "$ARGUMENTS", "{{args}}")
			if p != want {
				t.Fatalf("%s: prompt %q, want %q", f.Rel, p, want)
			}
		}
		return
	}
	if strings.Contains(s, "\nevil: true") {
		t.Fatalf("%s: a description broke out of its value:\n%s", f.Rel, s)
	}
}

func TestClaudeRuleScoping(t *testing.T) {
	items := library()[:1]
	proj := projection.Project(agentNamed("claude"), items, projection.Options{Level: content.LevelProject}).Files[0]
	if proj.Rel != ".claude/rules/go-style.md" || !strings.HasPrefix(string(proj.Data), "---\npaths:\n  - \"**/*.go\"\n---\n") {
		t.Fatalf("project rule: %s\n%s", proj.Rel, proj.Data)
	}
	// Claude Code 2.1 scopes ~/.claude/rules/ by paths too: a glob rule
	// waits for its file, not loaded at start, so it is no budget byte.
	user := projection.Project(agentNamed("claude"), items, projection.Options{Level: content.LevelUser}).Files[0]
	if user.Rel != "rules/go-style.md" || !strings.HasPrefix(string(user.Data), "---\npaths:\n  - \"**/*.go\"\n---\n") ||
		strings.Contains(string(user.Data), "Applies only") || user.Always {
		t.Fatalf("user rule: %s (always %v)\n%s", user.Rel, user.Always, user.Data)
	}
	skill := projection.Project(agentNamed("claude"), library()[2:3], projection.Options{Level: content.LevelUser, Autoload: false}).Files[0]
	if !strings.Contains(string(skill.Data), "disable-model-invocation: true\n---\n") {
		t.Fatalf("autoload off: %s", skill.Data)
	}
	cur := projection.Project(agentNamed("cursor"), library()[:2], projection.Options{Level: content.LevelProject}).Files
	if !strings.Contains(string(cur[0].Data), "alwaysApply: true") || !strings.Contains(string(cur[1].Data), "alwaysApply: false") {
		t.Fatalf("cursor alwaysApply: %s / %s", cur[0].Data, cur[1].Data)
	}
}

// tree is every file below dir with its bytes: a snapshot to compare.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			b, _ := os.ReadFile(p)
			out[p] = string(b)
		}
		return nil
	})
	return out
}

func plan(t testing.TB, sys *core.System, root string, items []content.Item, force bool) *projection.Plan {
	t.Helper()
	var files []projection.Placed
	var gaps []projection.Gap
	for _, agent := range []string{"claude", "cursor", "copilot", "codex", "gemini"} {
		out := projection.Project(agentNamed(agent), items, projection.Options{Level: content.LevelProject, Autoload: true})
		for _, f := range out.Files {
			files = append(files, projection.Placed{File: f, Path: filepath.Join(root, filepath.FromSlash(f.Rel))})
		}
		gaps = append(gaps, out.Gaps...)
	}
	p, err := projection.Make(context.Background(), sys, projection.Request{Root: root, RecordPath: filepath.Join(root, ".charter", "projection.lock"), Files: files, Gaps: gaps, Force: force})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func states(p *projection.Plan) map[string]int {
	m := map[string]int{}
	for _, e := range p.Entries {
		m[e.State]++
	}
	return m
}

func TestOwnership(t *testing.T) {
	m := coretest.New(t)
	root := filepath.Join(m.Dir, "proj")
	os.MkdirAll(filepath.Join(root, ".claude", "rules"), 0o755)
	mine := filepath.Join(root, ".claude", "rules", "mine.md")
	os.WriteFile(mine, []byte("my own rule\n"), 0o644)

	p := plan(t, m.Sys, root, library(), false)
	if err := p.Run(context.Background(), m.Sys, false); err != nil {
		t.Fatal(err)
	}
	lock, _ := os.ReadFile(filepath.Join(root, ".charter", "projection.lock"))
	if !bytes.Contains(lock, []byte(`"path":".claude/rules/go-style.md"`)) {
		t.Fatalf("lock:\n%s", lock)
	}
	if fi, _ := os.Stat(filepath.Join(root, ".claude", "skills", "deploy", "scripts", "run.sh")); fi == nil || fi.Mode()&0o100 == 0 {
		t.Fatalf("executable supporting file lost its mode: %v", fi)
	}
	// Byte-stable: a second plan has nothing to do, the lock is the same.
	again := plan(t, m.Sys, root, library(), false)
	if again.Changes() || again.Outdated() != 0 {
		t.Fatalf("re-apply changes: %v", states(again))
	}

	// A hand edit and a foreign file each stop the whole run.
	snap := tree(t, root)
	edited := filepath.Join(root, ".claude", "rules", "always.md")
	os.WriteFile(edited, []byte("edited\n"), 0o644)
	items := library()
	items[1].Body = []byte("Be kinder.\n") // a source change, so there is work to refuse
	foreign := filepath.Join(root, ".claude", "commands", "new.md")
	os.MkdirAll(filepath.Dir(foreign), 0o755)
	os.WriteFile(foreign, []byte("someone's\n"), 0o644)
	items = append(items, content.Item{Kind: content.KindCommand, Name: "new", Body: []byte("x\n")})
	snap = tree(t, root)
	p = plan(t, m.Sys, root, items, false)
	err := p.Run(context.Background(), m.Sys, false)
	if core.ErrorCode(err) != core.CodeProjectionConflict || !strings.Contains(err.Error(), "always.md") || !strings.Contains(err.Error(), "new.md") {
		t.Fatalf("want projection_conflict naming both files, got %v", err)
	}
	if got := tree(t, root); !equal(got, snap) {
		t.Fatal("a refused apply changed the tree")
	}
	// --force takes both over; the user's own file is never touched.
	p = plan(t, m.Sys, root, items, true)
	if err := p.Run(context.Background(), m.Sys, false); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(edited); string(b) != "Be kinder.\n" {
		t.Fatalf("forced: %q", b)
	}
	if b, _ := os.ReadFile(mine); string(b) != "my own rule\n" {
		t.Fatal("the user's own rule was touched")
	}

	// Pruning: the skill goes, with the folders charter made for it, and
	// nothing else does.
	p = plan(t, m.Sys, root, append(items[:2:2], items[3:]...), false)
	if err := p.Run(context.Background(), m.Sys, false); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, ".claude", "skills", "deploy")); !os.IsNotExist(err) {
		t.Fatalf("pruned skill folder still there: %v", err)
	}
	if _, err := os.Stat(filepath.Join(root, ".claude", "skills")); err != nil {
		t.Fatal("the kind's folder went too")
	}
	if b, _ := os.ReadFile(mine); string(b) != "my own rule\n" {
		t.Fatal("the user's own rule was touched by pruning")
	}
	if s := states(p); s[projection.StatePruned] == 0 {
		t.Fatalf("no pruned entries: %v", s)
	}
}

func equal(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func TestRecordSorted(t *testing.T) {
	r := projection.Record{Version: 1, Files: []projection.Recorded{{Path: "b", SHA256: strings.Repeat("a", 64)}, {Path: "a", SHA256: strings.Repeat("b", 64)}}}
	lines := strings.Split(string(r.Encode()), "\n")
	if !sort.StringsAreSorted(lines[1:3]) {
		t.Fatalf("not sorted:\n%s", r.Encode())
	}
}
