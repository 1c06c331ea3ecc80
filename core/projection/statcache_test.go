package projection_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/projection"
)

// settle waits until every stamp taken so far is older than the racy
// window, so the next plan may trust it (not a timed assertion).
func settle() { time.Sleep(60 * time.Millisecond) }

type ident struct {
	ino   uint64
	mtime int64
}

// idents is each projected file's inode and mtime: a write (a rename of a
// new file) changes the inode.
func idents(t *testing.T, root string) map[string]ident {
	t.Helper()
	out := map[string]ident{}
	filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		if err == nil && fi.Mode().IsRegular() && !strings.Contains(p, ".charter") {
			st := fi.Sys().(*syscall.Stat_t)
			out[p] = ident{ino: st.Ino, mtime: fi.ModTime().UnixNano()}
		}
		return nil
	})
	return out
}

func cacheOf(t *testing.T, root string, m *coretest.Machine) string {
	data, _ := os.ReadFile(projection.StatCacheFile(m.Sys, root, filepath.Join(root, ".charter", "projection.lock")))
	return string(data)
}

// A no-change run after every output was touched (same bytes, new mtime
// and ctime) writes nothing and still sees each file as it is: the
// stamps differ, so each file is read again, found current and learned.
func TestStatCacheTouchedOutputs(t *testing.T) {
	m := coretest.New(t)
	root := filepath.Join(m.Dir, "p")
	os.MkdirAll(filepath.Join(root, ".charter"), 0o755)
	items := bigLibrary()
	if err := plan(t, m.Sys, root, items, false).Run(context.Background(), m.Sys, false); err != nil {
		t.Fatal(err)
	}
	settle()
	if err := plan(t, m.Sys, root, items, false).Run(context.Background(), m.Sys, false); err != nil {
		t.Fatal(err)
	}
	if c := cacheOf(t, root, m); !strings.Contains(c, " .claude/rules/rule-000.md\n") {
		t.Fatalf("the no-change run learned no stamp:\n%.300s", c)
	}
	lock, _ := os.ReadFile(filepath.Join(root, ".charter", "projection.lock"))
	earlier := time.Now().Add(-time.Hour)
	for p := range idents(t, root) {
		os.Chtimes(p, earlier, earlier)
	}
	before := idents(t, root)
	settle()
	p := plan(t, m.Sys, root, items, false)
	if p.Changes() || p.Outdated() != 0 {
		t.Fatalf("touched outputs planned as changes: %v", states(p))
	}
	if err := p.Run(context.Background(), m.Sys, false); err != nil {
		t.Fatal(err)
	}
	if after := idents(t, root); !equalIdents(before, after) {
		t.Fatal("a no-change run after touch rewrote files")
	}
	if again, _ := os.ReadFile(filepath.Join(root, ".charter", "projection.lock")); !bytes.Equal(lock, again) {
		t.Fatal("the lock changed")
	}
	// The touched stamps are learned: an edit after them is still seen.
	edited := filepath.Join(root, ".claude", "rules", "rule-007.md")
	data, _ := os.ReadFile(edited)
	os.WriteFile(edited, bytes.ToUpper(data), 0o644) // same size
	os.Chtimes(edited, earlier, earlier)             // same mtime as learned
	if s := states(plan(t, m.Sys, root, items, false)); s["edited"] != 1 {
		t.Fatalf("an edit keeping size and mtime went unseen: %v", s)
	}
}

// A stamp not older than the racy window when taken is never kept: a
// change in the same clock tick would leave it as it was. A file whose
// mtime is ahead of the clock stands for one: it is read, found current,
// and left out of the cache, so an edit that keeps its size and mtime is
// seen by the next run.
func TestStatCacheRacyStamp(t *testing.T) {
	m := coretest.New(t)
	root := filepath.Join(m.Dir, "p")
	os.MkdirAll(filepath.Join(root, ".charter"), 0o755)
	items := library()
	if err := plan(t, m.Sys, root, items, false).Run(context.Background(), m.Sys, false); err != nil {
		t.Fatal(err)
	}
	settle()
	if err := plan(t, m.Sys, root, items, false).Run(context.Background(), m.Sys, false); err != nil {
		t.Fatal(err)
	}
	const name = ".claude/rules/go-style.md"
	if c := cacheOf(t, root, m); !strings.Contains(c, " "+name+"\n") {
		t.Fatalf("a settled stamp was not kept:\n%s", c)
	}
	target := filepath.Join(root, filepath.FromSlash(name))
	racy := time.Now().Add(time.Hour)
	os.Chtimes(target, racy, racy)
	settle()
	p := plan(t, m.Sys, root, items, false)
	if p.Changes() {
		t.Fatalf("a touched file planned as a change: %v", states(p))
	}
	if err := p.Run(context.Background(), m.Sys, false); err != nil {
		t.Fatal(err)
	}
	if c := cacheOf(t, root, m); strings.Contains(c, " "+name+"\n") {
		t.Fatalf("a racy stamp was kept:\n%s", c)
	}
	data, _ := os.ReadFile(target)
	os.WriteFile(target, bytes.ToUpper(data), 0o644)
	os.Chtimes(target, racy, racy)
	if s := states(plan(t, m.Sys, root, items, false)); s["edited"] != 1 {
		t.Fatalf("a racy edit went unseen: %v", s)
	}
}

// A corrupt cache, one whose stamps do not match, and one another
// account could have written are read as empty: every target is read and
// judged as without it.
func TestStatCacheCorrupt(t *testing.T) {
	m := coretest.New(t)
	root := filepath.Join(m.Dir, "p")
	os.MkdirAll(filepath.Join(root, ".charter"), 0o755)
	items := library()
	if err := plan(t, m.Sys, root, items, false).Run(context.Background(), m.Sys, false); err != nil {
		t.Fatal(err)
	}
	lock := filepath.Join(root, ".charter", "projection.lock")
	var rec projection.Record
	data, _ := os.ReadFile(lock)
	json.Unmarshal(data, &rec)
	var sum string
	for _, r := range rec.Files {
		if r.Path == ".claude/rules/go-style.md" {
			sum = r.SHA256
		}
	}
	target := filepath.Join(root, ".claude", "rules", "go-style.md")
	os.WriteFile(target, []byte("edited\n"), 0o644)
	fi, _ := os.Stat(target)
	st := fi.Sys().(*syscall.Stat_t)
	// The edited file's own stamp with the projected bytes' sum.
	lie := fmt.Sprintf("charter-stat 1\n%s %d %d %d %d %d %d .claude/rules/go-style.md\n",
		sum, st.Dev, st.Ino, st.Size, st.Mode, fi.ModTime().UnixNano(), st.Ctim.Nano())
	path := projection.StatCacheFile(m.Sys, root, lock)
	os.MkdirAll(filepath.Dir(path), 0o700)
	for _, c := range []struct {
		text string
		mode os.FileMode
	}{
		{"garbage", 0o600},
		{"charter-stat 1\n" + strings.Repeat("0", 64) + " 1 2 3 4 5 6 .claude/rules/go-style.md\n", 0o600},
		{"charter-stat 1\nshort 1 2 3 4 5 6 x\n", 0o600},
		{lie + "truncated", 0o600},
		{lie[:40] + strings.Repeat("\x00", len(lie)-40), 0o600}, // torn in a crash (no fsync)
		{lie, 0o666}, // others may write it
	} {
		os.Remove(path)
		os.WriteFile(path, []byte(c.text), c.mode)
		os.Chmod(path, c.mode)
		if s := states(plan(t, m.Sys, root, items, false)); s["edited"] != 1 {
			t.Fatalf("cache %q (%v) hid an edit: %v", c.text, c.mode, s)
		}
	}
	// The same lie in the user's own private file is believed: the cache
	// is as trusted as the account that owns it (docs/performance.md).
	os.Chmod(path, 0o600)
	if s := states(plan(t, m.Sys, root, items, false)); s["edited"] != 0 {
		t.Fatalf("the private cache was not used: %v", s)
	}
}

func equalIdents(a, b map[string]ident) bool {
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

// RunAlongside runs the caller's next writes once the files are written,
// while the stat cache is saved: the cache is as Run leaves it. A run
// that fails runs nothing alongside.
func TestRunAlongside(t *testing.T) {
	m := coretest.New(t)
	root := filepath.Join(m.Dir, "p")
	os.MkdirAll(filepath.Join(root, ".charter"), 0o755)
	items := bigLibrary()
	ran := false
	if err := plan(t, m.Sys, root, items, false).RunAlongside(context.Background(), m.Sys, false, projection.Alongside{After: func() { ran = true }}); err != nil || !ran {
		t.Fatalf("first run: %v, alongside ran: %v", err, ran)
	}
	settle()
	ran = false
	if err := plan(t, m.Sys, root, items, false).RunAlongside(context.Background(), m.Sys, false, projection.Alongside{After: func() { ran = true }}); err != nil || !ran {
		t.Fatalf("no-change run: %v, alongside ran: %v", err, ran)
	}
	if c := cacheOf(t, root, m); !strings.Contains(c, " .claude/rules/rule-000.md\n") {
		t.Fatalf("the no-change run alongside saved no stamp:\n%.300s", c)
	}

	other := filepath.Join(m.Dir, "q")
	os.MkdirAll(filepath.Join(other, ".charter"), 0o755)
	coretest.WriteFile(t, filepath.Join(other, ".claude", "rules", "rule-000.md"), "a person's file\n")
	ran = false
	if err := plan(t, m.Sys, other, items, false).RunAlongside(context.Background(), m.Sys, false, projection.Alongside{After: func() { ran = true }}); err == nil || ran {
		t.Fatalf("a run over a person's file: %v, alongside ran: %v", err, ran)
	}
}
