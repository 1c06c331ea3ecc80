//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package session

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/apply"
	"github.com/agentkit/charter/core/planmemo"
)

// The memo's stamps of the sources are taken while the run writes
// (WatchSources). A source rewritten after the plan read it, before its
// stamp or after, is never taken from the memo: the next run projects it.
func TestMemoSourceChangedWhileWriting(t *testing.T) {
	for _, when := range []string{"rewritten before its stamp", "rewritten after its stamp"} {
		t.Run(when, func(t *testing.T) {
			m := newMemoWorld(t)
			req := ApplyRequest{Project: true, RunOnly: true, Agents: []string{"claude"}}
			if when == "rewritten before its stamp" {
				// The run as Apply does it, the rule rewritten between the
				// plan and the watch.
				s := m.session()
				memo := s.ApplyMemo(context.Background(), req)
				full, err := s.PlanAll(context.Background(), req)
				if err != nil {
					t.Fatal(err)
				}
				m.write("Say why, twice.")
				memo.WatchSources()
				results, err := apply.RunAll(context.Background(), m.sys, full, false)
				if err != nil {
					t.Fatal(err)
				}
				memo.Remember(full, s.applyReport(results, full).FullReport)
			} else {
				// Rewritten at the first rename: the watch began before it.
				rewrote := false
				m.sys.Files.BeforeRename = func(string) {
					if !rewrote {
						rewrote = true
						m.write("Say why, twice.")
					}
				}
				m.apply(t)
				if !rewrote {
					t.Fatal("the run renamed nothing into place")
				}
				m.sys.Files.BeforeRename = nil
			}
			time.Sleep(60 * time.Millisecond) // past the racy window: a memo could be trusted now
			m.apply(t)
			out := filepath.Join(m.proj, ".claude", "rules", "style.md")
			if data, err := os.ReadFile(out); err != nil || !strings.Contains(string(data), "twice") {
				t.Fatalf("%s after its source changed during the last run: %q %v (a memo replayed it)", out, data, err)
			}
		})
	}
}

// memoWorld is a project with one rule, older than the racy window.
type memoWorld struct {
	sys        *core.System
	proj, rule string
}

func newMemoWorld(t *testing.T) *memoWorld {
	dir := t.TempDir()
	home, proj := filepath.Join(dir, "home"), filepath.Join(dir, "proj")
	m := &memoWorld{proj: proj, rule: filepath.Join(proj, ".charter", "rules", "style.md")}
	for _, d := range []string{home, filepath.Join(proj, ".git"), filepath.Dir(m.rule)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	m.write("Say why.")
	time.Sleep(60 * time.Millisecond) // older than the racy window: a run may keep a memo
	environ := []string{"HOME=" + home, "PATH=", "XDG_CACHE_HOME=" + filepath.Join(dir, "cache"), "AGENTKIT_POLICY_FILE=" + filepath.Join(dir, "policy.yaml")}
	m.sys = NewSystem(afero.NewOsFs(), environ, time.Now, func() (string, error) { return proj, nil })
	if !planmemo.Enabled(m.sys) {
		t.Fatal("no memo on this system")
	}
	return m
}

func (m *memoWorld) write(body string) {
	if err := os.WriteFile(m.rule, []byte("---\ndescription: style\n---\n"+body+"\n"), 0o644); err != nil {
		panic(err)
	}
}

func (m *memoWorld) session() *Session { return New(m.sys, Options{ProjectDir: &m.proj}) }

func (m *memoWorld) apply(t *testing.T) {
	t.Helper()
	if _, err := m.session().Apply(context.Background(), ApplyRequest{Project: true, Agents: []string{"claude"}}); err != nil {
		t.Fatal(err)
	}
}

// Planning is called before every run that plans, and never when the memo
// answers: the command line arms its signal handlers there, so a run
// that writes is always stoppable.
func TestApplyPlanningOnlyWhenPlanned(t *testing.T) {
	m := newMemoWorld(t)
	planned := 0
	run := func(dryRun bool) {
		t.Helper()
		req := ApplyRequest{Project: true, Agents: []string{"claude"}, DryRun: dryRun, Planning: func() { planned++ }}
		m.sys.Files.BeforeRename = func(string) {
			if planned == 0 {
				t.Error("a file was written before Planning was called")
			}
		}
		if _, err := m.session().Apply(context.Background(), req); err != nil {
			t.Fatal(err)
		}
	}
	for i, c := range []struct {
		dryRun bool
		want   int
	}{{false, 1}, {false, 1}, {true, 2}} {
		if i == 1 {
			time.Sleep(60 * time.Millisecond) // past the racy window: the memo answers
		}
		run(c.dryRun)
		if planned != c.want {
			t.Fatalf("run %d: Planning called %d times in all, want %d", i+1, planned, c.want)
		}
	}
	m.write("Say why, twice.")
	time.Sleep(60 * time.Millisecond)
	run(false)
	if planned != 3 {
		t.Fatalf("after a source changed: Planning called %d times in all, want 3", planned)
	}
}

// The memo vouches only for instruction files that still hold what the
// plan makes of them when it is kept: one edited between the run and
// Remember (its block taken out) is written again by the next run.
func TestMemoTargetEditedBeforeRemember(t *testing.T) {
	m := newMemoWorld(t)
	req := ApplyRequest{Project: true, RunOnly: true, Agents: []string{"claude"}}
	s := m.session()
	memo := s.ApplyMemo(context.Background(), req)
	req.snap = memo.Snapshot()
	full, err := s.PlanAll(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	memo.WatchSources()
	results, err := apply.RunAll(context.Background(), m.sys, full, false)
	if err != nil {
		t.Fatal(err)
	}
	claude := ""
	for _, r := range results {
		if filepath.Base(r.Path) == "CLAUDE.md" {
			claude = r.Path
		}
	}
	if claude == "" {
		t.Fatalf("no CLAUDE.md in %+v", results)
	}
	if err := os.WriteFile(claude, []byte("My own notes.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	memo.Remember(full, s.applyReport(results, full).FullReport)
	time.Sleep(60 * time.Millisecond) // past the racy window: a memo could be trusted now
	m.apply(t)
	if data, err := os.ReadFile(claude); err != nil || !strings.Contains(string(data), "My own notes.") || !strings.Contains(string(data), "charter") {
		t.Fatalf("%s after an edit before the memo was kept: %q %v (a memo vouched for it)", claude, data, err)
	}
}
