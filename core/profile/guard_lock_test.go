//go:build unix

package profile

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/fsys"
)

// Two spellings of one file share one lock: concurrent appends through
// both, from two Systems (two processes' worth of lock tables), lose
// nothing.
func TestTwoSpellingsShareALock(t *testing.T) {
	_, home := tempHome(t)
	os.MkdirAll(filepath.Join(home, ".agentkit/charter"), 0o700)
	os.MkdirAll(filepath.Join(home, "real"), 0o755)
	os.Symlink("real", filepath.Join(home, "alias"))
	spellings := []string{filepath.Join(home, "real/notes.md"), filepath.Join(home, "alias/notes.md"), filepath.Join(home, "alias/../real/./notes.md")}
	systems := []*core.System{
		testSystem(afero.NewOsFs(), "/", "HOME="+home),
		testSystem(afero.NewOsFs(), "/", "HOME="+home),
	}
	const writers, rounds = 6, 40
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, path := systems[w%len(systems)], spellings[w%len(spellings)]
			for r := range rounds {
				err := s.UpdateFile(path, false, func(old []byte) ([]byte, error) {
					return append(old, fmt.Sprintf("w%d r%d\n", w, r)...), nil
				})
				if err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	got := strings.Count(readFile(t, spellings[0]), "\n")
	if got != writers*rounds {
		t.Fatalf("%d lines, want %d: updates were lost", got, writers*rounds)
	}
	if locks, _ := os.ReadDir(filepath.Join(home, ".agentkit/charter/locks")); len(locks) == 0 || len(locks) > 2 {
		t.Fatalf("one file, locks %v", locks)
	}
}

// Issue 12 "Host root means host root": locks live under the run's root;
// nothing appears under the default root but the dismissals file.
func TestHostRootLocks(t *testing.T) {
	_, home := tempHome(t)
	host := filepath.Join(home, "host")
	flag := filepath.Join(home, "flagroot")
	for _, s := range []*core.System{
		testSystem(afero.NewOsFs(), "/", "HOME="+home, core.ConfigHomeVar+"="+host),
		testSystem(afero.NewOsFs(), "/", "HOME="+home).WithConfigRoot(&flag),
	} {
		// Both roots are hosts: the scope directory is the root itself.
		sc, err := ResolveRoot(s, s.ConfigRootFlag())
		if err != nil {
			t.Fatal(err)
		}
		if err := write(s, filepath.Join(sc.Path, "settings.yaml"), "a: 1\n", false); err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Join(home, ".claude"), 0o755)
		if err := write(s, filepath.Join(home, ".claude/CLAUDE.md"), "b\n", false); err != nil {
			t.Fatal(err)
		}
		if err := s.WithLock(filepath.Join(sc.Path, "local-server.json"), func() error {
			return s.WriteAtomic(filepath.Join(sc.Path, "local-server.token"), []byte("t\n"))
		}); err != nil {
			t.Fatal(err)
		}
		if err := writeDismissals(s); err != nil {
			t.Fatal(err)
		}
		if locks, _ := os.ReadDir(filepath.Join(sc.Path, "locks")); len(locks) == 0 {
			t.Errorf("no lock files under the host root %s", sc.Path)
		}
	}
	entries, _ := os.ReadDir(filepath.Join(home, ".agentkit/charter"))
	if len(entries) != 1 || entries[0].Name() != "dismissals.json" {
		t.Fatalf("the default root holds %v", entries)
	}
}

// Lock files do not grow with the number of distinct targets.
func TestLockFilesBounded(t *testing.T) {
	s, home := tempHome(t)
	root := filepath.Join(home, ".agentkit/charter")
	for i := range 3 * fsys.Stripes {
		if err := s.WithLock(filepath.Join(root, fmt.Sprintf("d%d/f%d", i%7, i)), func() error { return nil }); err != nil {
			t.Fatal(err)
		}
	}
	locks, _ := os.ReadDir(filepath.Join(root, "locks"))
	if len(locks) > fsys.Stripes {
		t.Fatalf("%d lock files for %d targets", len(locks), 3*fsys.Stripes)
	}
}

// Taking a lock creates no directory on the way to the target, and an
// update that writes nothing creates nothing. (A target inside the config
// root gets its lock files in <root>/locks, which creates the root: the
// first concurrent writes of a fresh root must already exclude each other.)
func TestLockCreatesNothing(t *testing.T) {
	s, home := tempHome(t)
	target := filepath.Join(home, ".claude/CLAUDE.md")
	if err := s.UpdateFile(target, false, func([]byte) ([]byte, error) { return nil, nil }); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Dir(target), filepath.Join(home, ".agentkit")} {
		if _, err := os.Stat(p); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("a write of nothing created %s", p)
		}
	}
	scope := filepath.Join(home, ".agentkit/charter/profiles/claude/work")
	if err := s.WithLock(filepath.Join(scope, "local-server.json"), func() error { return nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(scope); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the lock created %s", scope)
	}
}

func TestUpdateErrorsKeepFile(t *testing.T) {
	s, home := tempHome(t)
	path := filepath.Join(home, "f")
	os.WriteFile(path, []byte("old"), 0o600)
	boom := errors.New("boom")
	if err := s.UpdateFile(path, false, func([]byte) ([]byte, error) { return []byte("new"), boom }); !errors.Is(err, boom) {
		t.Fatalf("got %v", err)
	}
	if got := readFile(t, path); got != "old" {
		t.Fatalf("file %q", got)
	}
	// A directory as the target is an error, not a replacement.
	os.Mkdir(filepath.Join(home, "adir"), 0o700)
	var de *fsys.IsDirError
	if err := write(s, filepath.Join(home, "adir"), "x", false); !errors.As(err, &de) {
		t.Fatalf("directory target: %v", err)
	}
	noTempFiles(t, home)
}

// BenchmarkUpdateFile is one guarded settings write: walk, lock, read,
// replace. Compare with the afero + EvalSymlinks write of bab4326.
func BenchmarkUpdateFile(b *testing.B) {
	home := b.TempDir()
	os.MkdirAll(filepath.Join(home, ".agent-switch/claude/work"), 0o755)
	s := testSystem(afero.NewOsFs(), "/", "HOME="+home)
	path := filepath.Join(home, ".agentkit/charter/profiles/claude/work/settings.yaml")
	doc := bytes.Repeat([]byte("gates:\n  coverage:\n    min: 80 # keep it\n"), 40) // ~1.6 KB
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		err := s.UpdateFile(path, false, func([]byte) ([]byte, error) {
			return append(doc, fmt.Sprintf("n: %d\n", i)...), nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}
