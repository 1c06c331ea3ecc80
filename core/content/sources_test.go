package content_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/content"
	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/project"
)

// fixture is a profile scope under the default root, a project and a
// policy folder.
type fixture struct {
	m                             *coretest.Machine
	root, scope, project, policyD string
	sc                            core.Scope
}

func newFixture(t *testing.T) *fixture { return newFixtureTB(t) }

func newFixtureTB(t testing.TB) *fixture {
	m := coretest.New(t)
	f := &fixture{m: m, root: filepath.Join(m.Home, ".agentkit", "charter")}
	f.scope = filepath.Join(f.root, "profiles", "claude", "work")
	f.project = filepath.Join(m.Dir, "repo")
	f.policyD = filepath.Dir(m.PolicyFile)
	f.sc = core.Scope{Kind: core.ScopeProfile, Path: f.scope, Root: core.ConfigRoot{Path: f.root, Source: core.SourceDefault}}
	if err := os.MkdirAll(filepath.Join(f.project, ".charter"), 0o755); err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *fixture) load(t testing.TB) (*content.Library, error) {
	t.Helper()
	p, err := project.At(f.m.Sys, f.project, core.SourceFlag)
	if err != nil {
		t.Fatal(err)
	}
	return content.Load(context.Background(), f.m.Sys, f.sc, p, f.m.PolicyFile)
}

func rule(desc, tier string) string {
	return "---\ndescription: " + desc + "\ntier: " + tier + "\n---\nDo it.\n"
}

func TestLayersOverrideOriginsLevels(t *testing.T) {
	f := newFixture(t)
	w := func(dir, rel, data string) { coretest.WriteFile(t, filepath.Join(dir, rel), data) }
	w(f.root, "rules/a.md", rule("global a", "minimal"))
	w(f.root, "rules/b.md", rule("global b", "full"))
	w(f.scope, "rules/b.md", rule("scope b", "balanced"))
	w(f.scope, "rules/.hidden.md", "not an item")
	w(f.project+"/.charter", "rules/c.md", rule("project c", "minimal"))
	w(f.project+"/.charter", "rules/b.md", rule("project b", "minimal"))
	w(f.policyD, "rules/p.md", rule("policy p", "full"))
	w(f.scope, "skills/s/SKILL.md", "---\nname: s\ndescription: a skill\nlicense: MIT\n---\nUse it.\n")
	w(f.scope, "skills/s/scripts/run.sh", "#!/bin/sh\n")
	w(f.scope, "skills/s/.DS_Store", "junk")
	os.Chmod(filepath.Join(f.scope, "skills/s/scripts/run.sh"), 0o755)
	w(f.scope, "commands/ship.md", "---\ndescription: ship it\nargument-hint: VERSION\n---\nShip $ARGUMENTS.\n")
	w(f.scope, "subagents/rev.md", "---\nname: rev\ndescription: reviews\ntools: Read, Grep\nmodel: sonnet\n---\nReview.\n")

	lib, err := f.load(t)
	if err != nil {
		t.Fatal(err)
	}
	sel := content.Selection{Tier: content.TierBalanced, RulesDisabled: []string{"p", "a"}}
	got := map[string]content.Entry{}
	for _, e := range lib.Effective("", sel) {
		got[e.Key()] = e
	}
	want := map[string][3]string{ // description, state, level
		"rule/a":       {"global a", content.StateDisabled, content.LevelUser},
		"rule/b":       {"project b", content.StateActive, content.LevelProject},
		"rule/c":       {"project c", content.StateActive, content.LevelProject},
		"rule/p":       {"policy p", content.StatePolicy, content.LevelProject},
		"skill/s":      {"a skill", content.StateActive, content.LevelUser},
		"command/ship": {"ship it", content.StateActive, content.LevelUser},
		"subagent/rev": {"reviews", content.StateActive, content.LevelUser},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d entries: %v", len(got), got)
	}
	for k, w := range want {
		e := got[k]
		if e.Description != w[0] || e.State != w[1] || e.Level != w[2] {
			t.Errorf("%s: %q %s %s, want %v", k, e.Description, e.State, e.Level, w)
		}
	}
	if p := got["rule/b"].Path; p != filepath.Join(f.project, ".charter", "rules", "b.md") {
		t.Errorf("origin of b: %s", p)
	}
	s := got["skill/s"]
	if len(s.Files) != 1 || s.Files[0].Rel != "scripts/run.sh" || !s.Files[0].Exec || !strings.Contains(string(s.Front), "license: MIT") {
		t.Errorf("skill files %+v front %q", s.Files, s.Front)
	}
	if a := got["subagent/rev"]; strings.Join(a.Tools, "|") != "Read|Grep" || a.Model != "sonnet" {
		t.Errorf("subagent %+v", a)
	}
	if string(got["command/ship"].Body) != "Ship $ARGUMENTS.\n" || got["command/ship"].ArgHint != "VERSION" {
		t.Errorf("command %+v", got["command/ship"])
	}

	// User level: no project items; the scope's b wins over the global one
	// and is below the tier at minimal.
	user := lib.Effective(content.LevelUser, content.Selection{Tier: content.TierMinimal})
	var names []string
	for _, e := range user {
		names = append(names, e.Key()+"="+e.State)
	}
	if strings.Join(names, " ") != "rule/a=active rule/b=below_tier rule/p=policy skill/s=active command/ship=active subagent/rev=active" {
		t.Errorf("user level: %v", names)
	}
	proj := lib.ActiveItems(content.LevelProject, content.Selection{Tier: content.TierFull})
	names = nil
	for _, e := range proj {
		names = append(names, e.Key()+"@"+e.Level)
	}
	if strings.Join(names, " ") != "rule/b@project rule/c@project rule/p@project" {
		t.Errorf("project level: %v", names)
	}
}

// A disabled rule above the tier shows disabled.
func TestDisabledAboveTier(t *testing.T) {
	f := newFixture(t)
	coretest.WriteFile(t, filepath.Join(f.scope, "rules/x.md"), rule("x", "full"))
	lib, err := f.load(t)
	if err != nil {
		t.Fatal(err)
	}
	e := lib.Effective(content.LevelUser, content.Selection{Tier: content.TierMinimal, RulesDisabled: []string{"x"}})
	if len(e) != 1 || e[0].State != content.StateDisabled {
		t.Fatalf("%+v", e)
	}
}

func TestMalformedNamesFileAndLine(t *testing.T) {
	f := newFixture(t)
	w := func(rel, data string) { coretest.WriteFile(t, filepath.Join(f.scope, rel), data) }
	w("rules/bad-tier.md", "---\ndescription: d\ntier: huge\n---\n")
	w("rules/typo.md", "---\ndescription: d\nteir: full\n---\n")
	w("rules/Bad_Name.md", "x")
	w("rules/charter-x.md", "x")
	w("rules/notes.txt", "x")
	w("rules/agents.md", "---\nagents: [claude, nobody]\n---\n")
	w("skills/s/SKILL.md", "---\nname: other\ndescription: d\n---\n")
	w("skills/n/SKILL.md", "no frontmatter\n")
	w("skills/e/README.md", "no skill file\n")
	w("subagents/a.md", "---\nname: a\n---\n")
	w("commands/c.md", "---\ndescription: [a\n---\n")
	_, err := f.load(t)
	var me *content.MalformedError
	if !errors.As(err, &me) || core.ErrorCode(err) != core.CodeMalformedContent {
		t.Fatalf("%v", err)
	}
	var got []string
	for _, p := range me.Problems {
		got = append(got, strings.TrimPrefix(p.Path, f.scope+"/")+":"+strconv.Itoa(p.Line))
	}
	want := "commands/c.md:2 rules/Bad_Name.md:0 rules/agents.md:2 rules/bad-tier.md:3 rules/charter-x.md:0 rules/notes.txt:0 rules/typo.md:3 skills/e:0 skills/n/SKILL.md:1 skills/s/SKILL.md:2 subagents/a.md:1"
	if strings.Join(got, " ") != want {
		t.Errorf("problems:\n%s\nwant\n%s\n%v", strings.Join(got, " "), want, err)
	}
}

func TestSkillLinkIsAnError(t *testing.T) {
	f := newFixture(t)
	coretest.WriteFile(t, filepath.Join(f.scope, "skills/s/SKILL.md"), "---\nname: s\ndescription: d\n---\n")
	coretest.WriteFile(t, filepath.Join(f.m.Dir, "secret"), "key")
	link := filepath.Join(f.scope, "skills/s/data")
	if err := os.Symlink(filepath.Join(f.m.Dir, "secret"), link); err != nil {
		t.Fatal(err)
	}
	_, err := f.load(t)
	var me *content.MalformedError
	if !errors.As(err, &me) || len(me.Problems) != 1 || me.Problems[0].Path != link || me.Problems[0].Line != 0 {
		t.Fatalf("%v", err)
	}
}

func TestProjectSourcesStayInside(t *testing.T) {
	f := newFixture(t)
	outside := filepath.Join(f.m.Dir, "elsewhere")
	coretest.WriteFile(t, filepath.Join(outside, "x.md"), rule("x", "minimal"))
	if err := os.Symlink(outside, filepath.Join(f.project, ".charter", "rules")); err != nil {
		t.Fatal(err)
	}
	if _, err := f.load(t); core.ErrorCode(err) != core.CodeOutsideProject {
		t.Fatalf("%v", err)
	}
	// A rule file that is a link out of the project too.
	os.Remove(filepath.Join(f.project, ".charter", "rules"))
	os.MkdirAll(filepath.Join(f.project, ".charter", "commands"), 0o755)
	os.Symlink(filepath.Join(outside, "x.md"), filepath.Join(f.project, ".charter", "commands", "x.md"))
	if _, err := f.load(t); core.ErrorCode(err) != core.CodeOutsideProject {
		t.Fatalf("%v", err)
	}
}

// A global folder is read only under a profile of the default root.
func TestGlobalOnlyUnderProfile(t *testing.T) {
	f := newFixture(t)
	coretest.WriteFile(t, filepath.Join(f.root, "rules/g.md"), rule("g", "minimal"))
	sc := core.Scope{Kind: core.ScopeHost, Path: filepath.Join(f.m.Dir, "host"), Root: core.ConfigRoot{Path: filepath.Join(f.m.Dir, "host")}}
	lib, err := content.Load(context.Background(), f.m.Sys, sc, nil, "")
	if err != nil || len(lib.Items) != 0 || len(lib.Layers) != 1 {
		t.Fatalf("%v %+v", err, lib)
	}
}
