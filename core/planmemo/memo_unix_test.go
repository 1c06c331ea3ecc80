//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package planmemo_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/planmemo"
)

// settle waits until every stamp taken so far is older than the racy
// window (not a timed assertion: it only makes stamps trustworthy).
func settle() { time.Sleep(60 * time.Millisecond) }

type fixture struct {
	m          *coretest.Machine
	src, out   string
	memo       string
	key        string
	outSum     string
	start      time.Time
	report     []byte
	watchedDir string
}

func newFixture(t *testing.T) *fixture {
	m := coretest.New(t)
	f := &fixture{m: m, watchedDir: filepath.Join(m.Dir, "src"), key: planmemo.Key("a", "b"), report: []byte(`{"ok":true}`)}
	f.src = filepath.Join(f.watchedDir, "rule.md")
	f.out = filepath.Join(m.Dir, "out.md")
	coretest.WriteFile(t, f.src, "a rule\n")
	coretest.WriteFile(t, f.out, "projected\n")
	f.outSum = planmemo.Sum([]byte("projected\n"))
	f.memo = planmemo.Path(m.Sys, "test\x00"+m.Dir)
	return f
}

// save keeps the memo: the sources' tree, and out with sum as written.
func (f *fixture) save(t *testing.T, sum string) bool {
	t.Helper()
	var w planmemo.Watch
	w.Tree(f.watchedDir)
	w.File(f.out, sum, true)
	return planmemo.Save(f.m.Sys, f.memo, f.key, &w, f.start, f.report)
}

func (f *fixture) load() bool {
	rep, ok := planmemo.Load(f.m.Sys, f.memo, func() string { return f.key })
	return ok && string(rep) == string(f.report)
}

// A memo is given back while every stamp is as it was, and not after a
// source is touched (same bytes), a file added beside the sources, or
// another key (settings, agents, version).
func TestMemoStamps(t *testing.T) {
	f := newFixture(t)
	settle()
	f.start = time.Now()
	if !f.save(t, f.outSum) || !f.load() {
		t.Fatal("a memo of settled files was not kept")
	}
	if _, ok := planmemo.Load(f.m.Sys, f.memo, func() string { return planmemo.Key("a", "c") }); ok {
		t.Fatal("a memo was given for another key")
	}
	now := time.Now()
	os.Chtimes(f.src, now, now)
	if f.load() {
		t.Fatal("a memo was given after a source was touched")
	}
	settle()
	f.start = time.Now()
	if !f.save(t, f.outSum) || !f.load() {
		t.Fatal("memo not kept again")
	}
	coretest.WriteFile(t, filepath.Join(f.watchedDir, "new.md"), "another\n")
	if f.load() {
		t.Fatal("a memo was given after a source was added")
	}
}

// A source changed within fsys.RacyWindow of the run's start may have changed
// while it was read: no memo is kept. An output written by the run is
// kept with its sum, and while its stamp is racy it is hashed again: a
// wrong sum is never believed.
func TestMemoRacy(t *testing.T) {
	f := newFixture(t)
	f.start = time.Now() // the source was written just now
	if f.save(t, f.outSum) {
		t.Fatal("a memo was kept with a racy source")
	}
	settle()
	coretest.WriteFile(t, f.out, "projected\n") // written by the run: racy
	f.start = time.Now()
	if !f.save(t, planmemo.Sum([]byte("other bytes\n"))) {
		t.Fatal("memo with a racy output not kept")
	}
	if f.load() {
		t.Fatal("a racy output was believed without hashing it")
	}
	if !f.save(t, f.outSum) || !f.load() {
		t.Fatal("a racy output whose bytes match its sum was not believed")
	}
}

// A memo reached through a link, writable by others, owned by another
// account or out of shape is not used.
func TestMemoTrust(t *testing.T) {
	f := newFixture(t)
	settle()
	f.start = time.Now()
	if !f.save(t, f.outSum) || !f.load() {
		t.Fatal("memo not kept")
	}
	good, _ := os.ReadFile(f.memo)

	os.Chmod(f.memo, 0o666)
	if f.load() {
		t.Error("a memo others may write was used")
	}
	os.Chmod(f.memo, 0o600)

	moved := f.memo + ".real"
	os.Rename(f.memo, moved)
	os.Symlink(moved, f.memo)
	if f.load() {
		t.Error("a memo reached through a link was used")
	}
	os.Remove(f.memo)
	os.Rename(moved, f.memo)

	euid := f.m.Sys.Euid
	f.m.Sys.Euid = func() int { return os.Geteuid() + 1 }
	if f.load() {
		t.Error("a memo of another account was used")
	}
	f.m.Sys.Euid = euid

	// Written without fsync, a memo a crash tore keeps its size with
	// blocks of zeros.
	torn := string(good[:len(good)/2]) + strings.Repeat("\x00", len(good)-len(good)/2)
	for _, bad := range []string{string(good[:len(good)/2]), torn, "charter-plan 1\n" + f.key + "\nx\n", "garbage"} {
		os.WriteFile(f.memo, []byte(bad), 0o600)
		if f.load() {
			t.Errorf("a corrupt memo was used: %.60q", bad)
		}
	}
	os.WriteFile(f.memo, good, 0o600)
	if !f.load() {
		t.Error("the memo as written was not used")
	}
}
