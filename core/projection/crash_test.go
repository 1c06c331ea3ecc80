package projection_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentkit/charter/core/content"
	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/fsys"
	"github.com/agentkit/charter/core/projection"
)

// bigLibrary is the benchmark's library: 300 rules, 100 skills with 3
// files each, 100 commands.
func bigLibrary() []content.Item {
	var items []content.Item
	body := []byte(strings.Repeat("Follow this rule carefully in every case.\n", 20))
	for i := range 300 {
		items = append(items, content.Item{Kind: content.KindRule, Name: fmt.Sprintf("rule-%03d", i), Description: "a rule",
			Globs: []string{fmt.Sprintf("src/p%d/**/*.go", i%7)}, Body: body})
	}
	for i := range 100 {
		name := fmt.Sprintf("skill-%03d", i)
		items = append(items, content.Item{Kind: content.KindSkill, Name: name, Description: "a skill",
			Front: []byte("name: " + name + "\ndescription: a skill\n"), Body: body,
			Files: []content.File{{Rel: "a.md", Data: body}, {Rel: "b/c.md", Data: body}, {Rel: "run.sh", Data: body, Exec: true}}})
	}
	for i := range 100 {
		items = append(items, content.Item{Kind: content.KindCommand, Name: fmt.Sprintf("cmd-%03d", i), Description: "a command", Body: body})
	}
	return items
}

// TestCrashChild is the process the crash test kills: it applies the big
// library into $PROJECTION_CRASH_ROOT again and again, or with
// PROJECTION_CRASH_FIRST into a new project each time (a first apply,
// whose new folders are made under temporary names).
func TestCrashChild(t *testing.T) {
	root := os.Getenv("PROJECTION_CRASH_ROOT")
	if root == "" {
		t.Skip("run by TestKillDuringApply")
	}
	m := coretest.New(t)
	os.WriteFile(filepath.Join(root, "started"), nil, 0o644)
	if os.Getenv("PROJECTION_CRASH_FIRST") != "" {
		for i := 0; ; i++ {
			dir := filepath.Join(root, fmt.Sprintf("p%06d", i))
			os.MkdirAll(filepath.Join(dir, ".charter"), 0o755)
			if err := plan(t, m.Sys, dir, bigLibrary(), false).Run(context.Background(), m.Sys, false); err != nil {
				t.Fatal(err)
			}
		}
	}
	for i := 0; ; i++ {
		items := bigLibrary()
		for j := range items {
			items[j].Body = append(items[j].Body, fmt.Sprintf("round %d\n", i)...)
		}
		p := plan(t, m.Sys, root, items, false)
		if err := p.Run(context.Background(), m.Sys, false); err != nil {
			t.Fatal(err)
		}
	}
}

// crashChild is the TestCrashChild process with env. Its temporary
// folders go below dir, which this test removes: a child killed with
// SIGKILL cannot remove its own.
func crashChild(dir string, env ...string) *exec.Cmd {
	tmp, _ := os.MkdirTemp(dir, "child")
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
	cmd.Env = append(append(os.Environ(), "TMPDIR="+tmp), env...)
	return cmd
}

// TestKillDuringApply kills a large apply with SIGKILL, applies again and
// finds the tree as an uninterrupted run leaves it: no torn file, no
// temporary file, no file the record does not know.
func TestKillDuringApply(t *testing.T) {
	m := coretest.New(t)
	root := filepath.Join(m.Dir, "crash")
	os.MkdirAll(filepath.Join(root, ".charter"), 0o755)
	cmd := crashChild(m.Dir, "PROJECTION_CRASH_ROOT="+root)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Kill it once it has written part of a later round: some files are
	// then mid-write, others renamed, the record one round behind.
	waitFor(t, cmd, func() bool {
		b, err := os.ReadFile(filepath.Join(root, ".charter", "projection.lock"))
		return err == nil && len(b) > 0 && countTemps(root) > 0
	})
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()

	p := plan(t, m.Sys, root, bigLibrary(), false)
	if err := p.Run(context.Background(), m.Sys, false); err != nil {
		t.Fatalf("apply after the crash: %v", err)
	}
	asClean(t, m, root)
}

// asClean applies the big library to a new project and compares root,
// after a crash and an apply, with it: the same files, byte for byte.
func asClean(t *testing.T, m *coretest.Machine, root string) {
	t.Helper()
	clean := filepath.Join(m.Dir, "clean")
	os.MkdirAll(filepath.Join(clean, ".charter"), 0o755)
	if err := plan(t, m.Sys, clean, bigLibrary(), false).Run(context.Background(), m.Sys, false); err != nil {
		t.Fatal(err)
	}
	got, want := rel(tree(t, root), root), rel(tree(t, clean), clean)
	delete(got, "started")
	if !equal(got, want) {
		for k := range got {
			if want[k] != got[k] {
				t.Errorf("differs from an uninterrupted run: %s", k)
				break
			}
		}
		t.Fatalf("%d files after the crash, %d after a clean run", len(got), len(want))
	}
}

// A first apply killed while its new folders are still under temporary
// names: the next apply removes them and leaves what a clean run leaves.
func TestKillDuringFirstApply(t *testing.T) {
	m := coretest.New(t)
	var last string
	// The kill follows the sight of a temporary name by microseconds; a
	// folder published in between leaves nothing to recover: go again.
	for try := 0; last == "" && try < 5; try++ {
		root := filepath.Join(m.Dir, fmt.Sprintf("crash%d", try))
		os.MkdirAll(root, 0o755)
		cmd := crashChild(m.Dir, "PROJECTION_CRASH_ROOT="+root, "PROJECTION_CRASH_FIRST=1")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		waitFor(t, cmd, func() bool { return countTemps(root) > 0 })
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		entries, _ := os.ReadDir(root)
		for _, e := range entries {
			if p := filepath.Join(root, e.Name()); strings.HasPrefix(e.Name(), "p") && countTemps(p) > 0 {
				last = p
			}
		}
	}
	if last == "" {
		t.Fatal("no kill landed while a folder was under its temporary name")
	}
	if err := plan(t, m.Sys, last, bigLibrary(), false).Run(context.Background(), m.Sys, false); err != nil {
		t.Fatalf("apply after the crash: %v", err)
	}
	asClean(t, m, last)
	if n := countTemps(last); n > 0 {
		t.Fatalf("%d temporary names left", n)
	}
}

// waitFor polls until seen, and fails the test if the child ends first or
// a minute passes: a child that crashed must not hang the suite.
func waitFor(t *testing.T, cmd *exec.Cmd, seen func() bool) {
	t.Helper()
	exited := make(chan error, 1)
	go func() { _, err := cmd.Process.Wait(); exited <- err }()
	deadline := time.Now().Add(time.Minute)
	for !seen() {
		select {
		case err := <-exited:
			t.Fatalf("the child ended before the moment to kill it: %v", err)
		default:
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("no moment to kill the child came within a minute")
		}
	}
}

func countTemps(root string) int {
	n := 0
	filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		if _, ok := fsys.TempOf(filepath.Base(p)); err == nil && ok {
			n++
		}
		return nil
	})
	return n
}

func rel(m map[string]string, root string) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		r, _ := filepath.Rel(root, k)
		out[r] = v
	}
	return out
}

func BenchmarkApplyLibrary(b *testing.B) {
	m := coretest.New(b)
	items := bigLibrary()
	for i := 0; i < b.N; i++ {
		root := filepath.Join(m.Dir, fmt.Sprint("cold", i))
		os.MkdirAll(root, 0o755)
		if err := benchPlan(b, m, root, items).Run(context.Background(), m.Sys, false); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkApplyNoChange(b *testing.B) {
	m := coretest.New(b)
	items := bigLibrary()
	root := filepath.Join(m.Dir, "warm")
	os.MkdirAll(root, 0o755)
	benchPlan(b, m, root, items).Run(context.Background(), m.Sys, false)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p := benchPlan(b, m, root, items)
		if p.Changes() {
			b.Fatal("changes on a re-run")
		}
	}
}

func benchPlan(b *testing.B, m *coretest.Machine, root string, items []content.Item) *projection.Plan {
	var files []projection.Placed
	for _, agent := range []string{"claude", "codex", "cursor", "copilot"} {
		for _, f := range projection.Project(agentNamed(agent), items, projection.Options{Level: content.LevelProject, Autoload: true}).Files {
			files = append(files, projection.Placed{File: f, Path: filepath.Join(root, filepath.FromSlash(f.Rel))})
		}
	}
	p, err := projection.Make(context.Background(), m.Sys, projection.Request{Root: root, RecordPath: filepath.Join(root, ".charter", "projection.lock"), Files: files})
	if err != nil {
		b.Fatal(err)
	}
	return p
}
