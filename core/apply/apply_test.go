package apply

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/profile"
	"github.com/agentkit/charter/core/settings"
)

// machine is a home directory on the real file system (links need it).
type machine struct {
	home string
	sys  *core.System
	snap *settings.Snapshot
}

func newMachine(t *testing.T, env ...string) *machine {
	t.Helper()
	cm := coretest.New(t, coretest.Env(env...))
	home, sys := cm.Home, cm.Sys
	sc, err := profile.ResolveScope(sys, nil)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := settings.New(sys, sc).Read()
	if err != nil {
		t.Fatal(err)
	}
	return &machine{home: home, sys: sys, snap: snap}
}

func (m *machine) path(rel string) string { return filepath.Join(m.home, filepath.FromSlash(rel)) }

func (m *machine) write(t *testing.T, rel, data string) {
	t.Helper()
	coretest.WriteFile(t, m.path(rel), data)
}

func (m *machine) read(t *testing.T, rel string) string {
	t.Helper()
	data, err := os.ReadFile(m.path(rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func (m *machine) mkdir(t *testing.T, rel string) {
	t.Helper()
	if err := os.MkdirAll(m.path(rel), 0o755); err != nil {
		t.Fatal(err)
	}
}

func TestTargets(t *testing.T) {
	tests := []struct {
		name   string
		env    []string
		dirs   []string
		agents []string
		want   []string // agent=path below $HOME
		code   string   // a usage error's code instead
	}{
		{name: "no agent directory", code: "no_agent"},
		{name: "codex only", dirs: []string{".codex"}, want: []string{"codex=.codex/AGENTS.md", "codex=.codex/hooks.json"}},
		{name: "both", dirs: []string{".claude", ".codex"}, want: []string{"claude=.claude/CLAUDE.md", "claude=.claude/settings.json", "codex=.codex/AGENTS.md", "codex=.codex/hooks.json"}},
		{name: "explicit, directory missing", agents: []string{"claude"}, want: []string{"claude=.claude/CLAUDE.md", "claude=.claude/settings.json"}},
		{name: "all, deduplicated", agents: []string{"codex", "all", "Claude"}, want: userAll("")},
		{name: "unknown", agents: []string{"nosuch"}, code: "unknown_agent"},
		{name: "project-only agent at user level", agents: []string{"jules"}, code: "unknown_agent"},
		// Named, an agent with only permission or server files at user
		// level (Cursor's CLI, Continue) is no usage error: those are its files.
		{name: "agent with only governance files at user level", agents: []string{"cursor"}},
		{name: "gemini directory", dirs: []string{".gemini"}, want: []string{"gemini=.gemini/GEMINI.md"}},
		{name: "antigravity profile through HOME", env: []string{"HOME=$HOME/.agent-switch/antigravity/agy1/config"}, dirs: []string{".claude"},
			want: []string{"antigravity=.agent-switch/antigravity/agy1/config/.gemini/GEMINI.md"}},
		{name: "antigravity profile, every agent under its home", env: []string{"HOME=$HOME/.agent-switch/antigravity/agy1/config"}, agents: []string{"all"},
			want: userAll(".agent-switch/antigravity/agy1/config/")},
		{name: "claude profile", env: []string{"CLAUDE_CONFIG_DIR=$HOME/.agent-switch/claude/work/config"}, dirs: []string{".claude", ".codex"},
			want: []string{"claude=.agent-switch/claude/work/config/CLAUDE.md", "claude=.agent-switch/claude/work/config/settings.json"}},
		{name: "codex profile", env: []string{"CODEX_HOME=$HOME/.agent-switch/codex/p1"},
			want: []string{"codex=.agent-switch/codex/p1/AGENTS.md", "codex=.agent-switch/codex/p1/hooks.json"}},
		{name: "profile of another provider", env: []string{"GEMINI_CONFIG_DIR=$HOME/.agent-switch/gemini/work/config"}, dirs: []string{".claude"}, code: "no_agent"},
		{name: "another provider, agent chosen", env: []string{"GEMINI_CONFIG_DIR=$HOME/.agent-switch/gemini/work/config"}, agents: []string{"claude"},
			want: []string{"claude=.agent-switch/gemini/work/config/CLAUDE.md", "claude=.agent-switch/gemini/work/config/settings.json"}},
		// The other agents' files live outside the Claude profile: skipped
		// (profileskip_test.go), nothing written where no agent reads.
		{name: "every agent in a profile", env: []string{"CLAUDE_CONFIG_DIR=$HOME/.agent-switch/claude/work/config"}, agents: []string{"all"},
			want: []string{"claude=.agent-switch/claude/work/config/CLAUDE.md", "claude=.agent-switch/claude/work/config/settings.json"}},
		{name: "the agent's own variable outside a profile", env: []string{"CLAUDE_CONFIG_DIR=$HOME/elsewhere"}, dirs: []string{"elsewhere"},
			want: []string{"claude=elsewhere/CLAUDE.md", "claude=elsewhere/settings.json"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newMachine(t, tt.env...)
			for _, d := range tt.dirs {
				m.mkdir(t, d)
			}
			ts, err := Plan(context.Background(), m.sys, m.snap, tt.agents)
			if tt.code != "" {
				if core.ErrorCode(err) != tt.code || !strings.Contains(err.Error(), "--agent") && tt.code == "no_agent" {
					t.Fatalf("got %v, want a usage error %s naming --agent", err, tt.code)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, tg := range ts {
				rel, _ := filepath.Rel(m.home, tg.Path)
				got = append(got, tg.Agent+"="+filepath.ToSlash(rel))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestRunStatus(t *testing.T) {
	m := newMachine(t)
	m.write(t, ".claude/CLAUDE.md", "# Mine\n")
	ts, err := Plan(context.Background(), m.sys, m.snap, []string{"claude", "codex"})
	if err != nil {
		t.Fatal(err)
	}
	st := Status(ts)
	if st[0].State != StateOutdated || !strings.Contains(st[0].Diff, "+"+BeginMarker) || st[0].Missing ||
		st[1].State != StateOutdated || !strings.HasPrefix(st[1].Diff, "--- /dev/null\n") || !st[1].Missing {
		t.Fatalf("status %+v", st)
	}
	rs, err := Run(context.Background(), m.sys, ts, false)
	if err != nil {
		t.Fatal(err)
	}
	if rs[0].State != StateWritten || rs[1].State != StateWritten {
		t.Fatalf("run %+v", rs)
	}
	block := string(Render(m.snap, Library{}))
	if got := m.read(t, ".claude/CLAUDE.md"); got != "# Mine\n\n"+block {
		t.Errorf("CLAUDE.md:\n%s", got)
	}
	if got := m.read(t, ".codex/AGENTS.md"); got != block {
		t.Errorf("AGENTS.md:\n%s", got)
	}

	ts, err = Plan(context.Background(), m.sys, m.snap, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range Status(ts) {
		if r.State != StateCurrent || r.Diff != "" {
			t.Errorf("after run: %+v", r)
		}
	}
	if rs, err = Run(context.Background(), m.sys, ts, false); err != nil || rs[0].State != StateCurrent || rs[1].State != StateCurrent {
		t.Errorf("second run: %+v %v", rs, err)
	}
}

// One target with broken markers stops the plan: no file is written.
func TestPlanBadMarkersWritesNothing(t *testing.T) {
	m := newMachine(t)
	bad := "x\n" + BeginMarker + "\n"
	m.write(t, ".claude/CLAUDE.md", bad)
	m.mkdir(t, ".codex")
	_, err := Plan(context.Background(), m.sys, m.snap, nil)
	var me *MarkerError
	if !errors.As(err, &me) || !strings.Contains(err.Error(), "CLAUDE.md: unbalanced charter markers: begin at line 2 has no end") {
		t.Fatalf("got %v", err)
	}
	if m.read(t, ".claude/CLAUDE.md") != bad {
		t.Error("CLAUDE.md was changed")
	}
	if _, err := os.Stat(m.path(".codex/AGENTS.md")); !os.IsNotExist(err) {
		t.Error("AGENTS.md was written")
	}
}

// Two profiles share CLAUDE.md as a link: blocked without confirmation,
// the other target still written; confirmed, written at the real file,
// the links intact and both profiles see it.
func TestRunSharedLink(t *testing.T) {
	m := newMachine(t, "CLAUDE_CONFIG_DIR=$HOME/.agent-switch/claude/a/config")
	m.write(t, ".agent-switch/shared/CLAUDE.md", "# Shared\n")
	for _, p := range []string{"a", "b"} {
		m.mkdir(t, ".agent-switch/claude/"+p+"/config")
		if err := os.Symlink("../../../shared/CLAUDE.md", m.path(".agent-switch/claude/"+p+"/config/CLAUDE.md")); err != nil {
			t.Skip("no symlinks:", err)
		}
	}
	link := m.path(".agent-switch/claude/a/config/CLAUDE.md")
	ts, err := Plan(context.Background(), m.sys, m.snap, []string{"claude", "codex"})
	if err != nil {
		t.Fatal(err)
	}
	if ts[0].SharedPath != link {
		t.Errorf("plan sharedPath %q", ts[0].SharedPath)
	}

	rs, err := Run(context.Background(), m.sys, ts, false)
	var be *BlockedError
	var se *core.SharedWriteError
	if !errors.As(err, &be) || !errors.As(err, &se) || se.SharedPath != link {
		t.Fatalf("got %v, want a blocked error through %s", err, link)
	}
	if rs[0].State != StateBlocked || rs[0].SharedPath != link || rs[1].State != StateWritten || !reflect.DeepEqual(be.Results, rs) {
		t.Fatalf("results %+v", rs)
	}
	if m.read(t, ".agent-switch/shared/CLAUDE.md") != "# Shared\n" {
		t.Error("the shared file was written without confirmation")
	}

	rs, err = Run(context.Background(), m.sys, ts, true)
	if err != nil || rs[0].State != StateWritten || rs[0].SharedPath != link || rs[1].State != StateCurrent {
		t.Fatalf("confirmed: %+v %v", rs, err)
	}
	want := "# Shared\n\n" + string(Render(m.snap, Library{}))
	for _, p := range []string{"a", "b"} {
		rel := ".agent-switch/claude/" + p + "/config/CLAUDE.md"
		if dest, err := os.Readlink(m.path(rel)); err != nil || dest != "../../../shared/CLAUDE.md" {
			t.Errorf("%s: link now %q, %v", rel, dest, err)
		}
		if m.read(t, rel) != want {
			t.Errorf("%s does not show the block", rel)
		}
	}

	// Nothing to change: no block, even without confirmation.
	if rs, err = Run(context.Background(), m.sys, ts, false); err != nil || rs[0].State != StateCurrent {
		t.Errorf("current shared target: %+v %v", rs, err)
	}
}

func TestCheck(t *testing.T) {
	if err := Check([]Result{{State: StateCurrent}}, "charter apply"); err != nil {
		t.Errorf("all current: %v", err)
	}
	err := Check([]Result{{State: StateCurrent}, {State: StateOutdated}}, "charter apply --project")
	if core.ErrorCode(err) != core.CodeOutdated || !strings.Contains(err.Error(), "1 of 2 agent files out of date: run `charter apply --project`") {
		t.Errorf("one outdated: %v (%s)", err, core.ErrorCode(err))
	}
}

// userAll are the user-level targets of --agent all below prefix: every
// agent of the table with a user-level file, but Antigravity, which reads
// Gemini CLI's ~/.gemini/GEMINI.md (one block there).
func userAll(prefix string) []string {
	var out []string
	for _, p := range []string{"claude=.claude/CLAUDE.md", "claude=.claude/settings.json", "codex=.codex/AGENTS.md", "codex=.codex/hooks.json", "gemini=.gemini/GEMINI.md", "copilot=.copilot/copilot-instructions.md", "windsurf=.codeium/windsurf/memories/global_rules.md", "roo=.roo/rules/charter.md", "kilo=.config/kilo/AGENTS.md", "augment=.augment/user-guidelines.md", "kiro=.kiro/steering/AGENTS.md", "qwen=.qwen/QWEN.md", "opencode=.config/opencode/AGENTS.md", "amp=.config/amp/AGENTS.md", "goose=.config/goose/.goosehints", "droid=.factory/AGENTS.md"} {
		out = append(out, strings.Replace(p, "=", "="+prefix, 1))
	}
	return out
}
