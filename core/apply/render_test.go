package apply

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/content"
	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/settings"
)

// snapshot reads the settings of sc from a memory file system holding yaml
// as the scope's file.
func snapshot(t *testing.T, sc core.Scope, yaml string) *settings.Snapshot {
	t.Helper()
	sys := coretest.New(t, coretest.Fs(afero.NewMemMapFs()), coretest.Home("/home/me"), coretest.Wd("/")).Sys
	st := settings.New(sys, sc)
	if yaml != "" {
		if err := afero.WriteFile(sys.Fs, st.Path(), []byte(yaml), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	snap, err := st.Read()
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

const customYAML = `rules:
  tier: full
  disabled: [tdd, "docs-first"]
skills:
  autoload: false
  disabled: ["web search"]
commands:
  suggestions:
    enabled: true
    confidence_floor: 0.85
    max_options: 2
gates:
  tests:
    required: true
  lint:
    required: false
  coverage:
    min: 82.5
  on_failure: ask
cost:
  budget:
    daily: 12.50
    monthly: 200
  enforcement: hard-stop
agent:
  autonomy: off
  minimal_output: false
worktrees:
  mode: on
memory:
  cadence: never
`

func profileScope() core.Scope {
	provider, profile := "claude", "work"
	return core.Scope{Kind: core.ScopeProfile, Path: "/home/me/.agentkit/charter/profiles/claude/work",
		Profile: core.Profile{Active: true, Provider: &provider, Profile: &profile}}
}

// someContent is a library in Claude's folders: the rules and skills
// sections are rendered only while an agent gets some.
var someContent = Library{Rules: 3, RulesDir: ".claude/rules", Skills: 2, SkillsDir: ".claude/skills"}

// blockContent is Codex's: its rules written out in the block, one with
// globs and one whose body tries to end the block.
var blockContent = Library{Skills: 1, SkillsDir: ".agents/skills", BlockRules: []content.Item{
	{Kind: content.KindRule, Name: "go-errors", Globs: []string{"**/*.go"}, Body: []byte("Wrap errors with context.\n")},
	{Kind: content.KindRule, Name: "no-secrets", Body: []byte("Never commit a secret.\n" + EndMarker + "\n  " + BeginMarker + "\n")},
}}

func TestRenderGolden(t *testing.T) {
	global := core.Scope{Kind: core.ScopeGlobal, Path: "/home/me/.agentkit/charter"}
	tests := []struct {
		golden string
		snap   *settings.Snapshot
		lib    Library
	}{
		{"default.golden", snapshot(t, global, ""), Library{}},
		{"custom.golden", snapshot(t, profileScope(), customYAML), someContent},
		{"blockrules.golden", snapshot(t, profileScope(), "rules: {disabled: [tdd]}\n"), blockContent},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			got := Render(tt.snap, tt.lib)
			path := filepath.Join("testdata", tt.golden)
			coretest.Golden(t, path, got)
			if _, found, err := findBlock(path, got); err != nil || !found {
				t.Errorf("the block does not parse as one block: %v", err)
			}
		})
	}
}

// Every setting must change what the agent is told: a key the block forgot
// would govern nothing.
func TestRenderEveryKey(t *testing.T) {
	base := snapshot(t, profileScope(), "")
	before := Render(base, someContent)
	for _, k := range settings.Keys() {
		if k.Name == settings.KeySources || k.Section() == "permissions" || k.Section() == "mcp" {
			continue // sources are charter's input; permissions and servers go to the agents' own files (governance_test.go)
		}
		snap := *base
		snap.Values = map[string]any{}
		for name, v := range base.Values {
			snap.Values[name] = v
		}
		snap.Values[k.Name] = otherValue(t, k)
		if bytes.Equal(Render(&snap, someContent), before) {
			t.Errorf("changing %s does not change the block", k.Name)
		}
	}
}

func otherValue(t *testing.T, k settings.Key) any {
	switch k.Kind {
	case settings.Bool:
		return !k.Default.(bool)
	case settings.Int:
		return k.Default.(int64) + 1
	case settings.Decimal:
		if k.Default.(settings.Dec) == "0" {
			return settings.Dec("1")
		}
		return settings.Dec("0.7")
	case settings.List:
		return []string{"x"}
	case settings.String:
		return "make check"
	case settings.Duration:
		return "1m30s"
	case settings.Enum:
		for _, c := range k.Choices {
			if c != k.Default {
				return c
			}
		}
	}
	t.Fatalf("no other value for %s", k.Name)
	return nil
}

// Whatever a list item or the scope's path holds, it cannot end the block
// early.
func TestRenderCannotForgeMarkers(t *testing.T) {
	snap := snapshot(t, core.Scope{Kind: core.ScopeHost, Path: "/x\n" + EndMarker + "\n"}, "")
	snap.Values["rules.disabled"] = []string{"x\n" + EndMarker + "\n" + BeginMarker, "a`b"}
	got := Render(snap, blockContent)
	blk, found, err := findBlock("block", got)
	if err != nil || !found || blk.start != 0 || blk.end != len(got) {
		t.Fatalf("block not one whole block (%v):\n%s", err, got)
	}
}

// With every gate off the section says so and nothing about failing; a
// key whose If is false says nothing; a zero number says its Zero.
func TestRenderOffStates(t *testing.T) {
	snap := snapshot(t, profileScope(), `gates: {tests: {required: false}, lint: {required: false}, on_failure: ask}
commands: {suggestions: {enabled: false, confidence_floor: 0.9}}
`)
	got := string(Render(snap, Library{}))
	for _, want := range []string{"No quality gate is set.\n\nNot required here: tests, lint, coverage.\n", "- Do not suggest slash commands.\n\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("block lacks %q:\n%s", want, got)
		}
	}
	for _, unwanted := range []string{"If a gate fails", "0.9", "at most"} {
		if strings.Contains(got, unwanted) {
			t.Errorf("block holds %q:\n%s", unwanted, got)
		}
	}
	snap = snapshot(t, profileScope(), "commands: {suggestions: {max_options: 0}}\n")
	if got := string(Render(snap, Library{})); !strings.Contains(got, "- Do not suggest slash commands.\n") {
		t.Errorf("max_options 0 still suggests:\n%s", got)
	}
}

// Without a charter rule or skill the block says nothing about following
// rules or loading skills, whatever the settings about them say; with
// some it says how many and where.
func TestRenderContentSections(t *testing.T) {
	snap := snapshot(t, profileScope(), "rules: {tier: full, disabled: [tdd]}\nskills: {autoload: false, disabled: [web]}\n")
	none := string(Render(snap, Library{}))
	for _, unwanted := range []string{"### Rules", "### Skills", "rule", "skill", "`tdd`", "`web`"} {
		if strings.Contains(none, unwanted) {
			t.Errorf("a block without content holds %q:\n%s", unwanted, none)
		}
	}
	for lib, want := range map[*Library]string{
		{Rules: 1, RulesDir: ".claude/rules"}:                              "### Rules\n\n1 charter rule is active, in its own file in `.claude/rules/` (loaded as its globs say).\n\n- Rule tier: **full**.",
		{Rules: 2, RulesDir: "rules", BlockRules: blockContent.BlockRules}: "4 charter rules are active: 2 in `rules/` (loaded as their globs say) and 2 written out below.",
		{Skills: 1, SkillsDir: ".claude/skills"}:                           "### Skills\n\n1 charter skill is active, in its own folder in `.claude/skills/`.\n\n- Do not load skills on your own",
	} {
		got := string(Render(snap, *lib))
		if !strings.Contains(got, want) || !strings.Contains(got, "Never") {
			t.Errorf("block for %+v lacks %q:\n%s", *lib, want, got)
		}
	}
}

// A setting whose Tell is empty adds nothing, whatever its kind.
func TestTellEmptySaysNothing(t *testing.T) {
	for _, v := range []any{true, "x", []string{"a"}, int64(3), settings.Dec("0.5"), settings.Dec("0")} {
		if got := tell(settings.Key{Kind: settings.String}, v); got != "" {
			t.Errorf("tell(empty, %#v) = %q", v, got)
		}
	}
}

// A required gate without a command does not claim `charter gate run`
// checks it (issue 28): the block says no command is configured, until one
// is.
func TestRenderGateWithoutCommand(t *testing.T) {
	got := string(Render(snapshot(t, profileScope(), "gates: {coverage: {min: 80}}\n"), Library{}))
	for _, want := range []string{
		"- [ ] The tests pass. No test command is configured, so `charter gate run` does not check this",
		"- [ ] The linter passes. No lint command is configured,",
		"- [ ] Test coverage is at least 80%. No coverage command is configured,",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("block lacks %q:\n%s", want, got)
		}
	}
	got = string(Render(snapshot(t, profileScope(), "gates: {tests: {command: 'go test ./...'}, lint: {command: '  '}}\n"), Library{}))
	if !strings.Contains(got, "- [ ] The tests pass.\n") || strings.Contains(got, "No test command") {
		t.Errorf("a configured tests gate still says it has no command:\n%s", got)
	}
	if !strings.Contains(got, "No lint command is configured") {
		t.Errorf("a blank lint command counts as configured:\n%s", got)
	}
}
