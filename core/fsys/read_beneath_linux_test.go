package fsys

import (
	"bytes"
	"strings"
	"sync"
	"testing"

	"github.com/spf13/afero"
	"golang.org/x/sys/unix"

	"github.com/agentkit/charter/core/internal/swaptest"
)

// readBeneath answers only where the walk would answer the same: for every
// path of a hostile project, ReadWithin (the fast read first) and the walk
// alone give the same bytes and the same error; and the fast read does
// answer the plain cases, so the comparison is not between two walks.
func TestReadBeneathAsWalk(t *testing.T) {
	tr, root := project(t)
	tr.dir("proj/.charter/sub", "proj/.git")
	tr.file("proj/.charter/settings.yaml", "rules: {}\n", 0o644)
	tr.file("proj/.charter/big.yaml", strings.Repeat("a", int(KindSettings.Max())+1), 0o644)
	tr.file("proj/.git/config", "[core]\n", 0o644)
	tr.file("proj/plain", "x\n", 0o644)
	tr.link("proj/.charter/out.yaml", "../../outside/keys")
	tr.link("proj/.charter/in.yaml", "settings.yaml")
	tr.link("proj/linked", ".charter")
	tr.link("proj/away", "../outside/dir")
	tr.link("proj/gitlink", ".git")
	must(t, unix.Mkfifo(tr.p("proj/.charter/fifo"), 0o644))
	cases := map[string]bool{ // path below proj/ → the fast read answers it
		".charter/settings.yaml":      true,
		".charter/big.yaml":           true,
		".charter/fifo":               true,
		".charter/missing.yaml":       true,
		"nodir/missing.yaml":          true,
		".charter/sub":                false, // a folder: the walk words it
		".charter/out.yaml":           false,
		".charter/in.yaml":            false,
		"linked/settings.yaml":        false,
		"away/copilot.md":             false,
		"away/missing.md":             false,
		"gitlink/config":              false,
		".git/config":                 false,
		".git/missing":                false,
		"plain/below":                 false, // a file where a folder must be
		"../outside/keys":             false,
		".charter/../../outside/keys": false,
		".charter/./settings.yaml":    true,
		".charter//settings.yaml":     true,
	}
	s := &Files{Fs: afero.NewOsFs()}
	kernel := openat2Works(t)
	for rel, fast := range cases {
		path := root + "/" + rel
		_, ok, _ := s.readBeneath(root, path, KindSettings)
		if fast = fast && kernel; ok != fast { // without openat2 the walk answers all
			t.Errorf("%s: the fast read answered %v, want %v", rel, ok, fast)
		}
		got, gotErr := s.ReadWithin(root, path, KindSettings)
		want, wantErr := s.readWalked(root, path, KindSettings)
		if IsAbsent(wantErr) {
			want, wantErr = nil, nil
		} else if wantErr != nil {
			wantErr = ReadError(path, wantErr)
		}
		if !bytes.Equal(got, want) || (got == nil) != (want == nil) {
			t.Errorf("%s: read %q (nil %v), the walk %q (nil %v)", rel, got, got == nil, want, want == nil)
		}
		if codeOf(gotErr) != codeOf(wantErr) || errText(gotErr) != errText(wantErr) {
			t.Errorf("%s: error %v, the walk's %v", rel, gotErr, wantErr)
		}
	}
}

// openat2Works reports whether this kernel (and its seccomp filter) lets a
// process call openat2: before Linux 5.6, or where a filter refuses it,
// every read is the walk's.
func openat2Works(t *testing.T) bool {
	how := unix.OpenHow{Flags: unix.O_RDONLY | unix.O_CLOEXEC | unix.O_DIRECTORY}
	fd, err := unix.Openat2(unix.AT_FDCWD, t.TempDir(), &how)
	if err == nil {
		unix.Close(fd)
		return true
	}
	t.Logf("openat2: %v: every read takes the walk", err)
	return false
}

// A worktree's or submodule's ".git" file names a git folder the walk keeps
// out of by identity, whatever the spelling: the fast read leaves every
// path of such a project to the walk.
func TestReadBeneathLeavesWorktreesToTheWalk(t *testing.T) {
	tr, root := project(t)
	tr.dir("proj/.charter", "gitdir")
	tr.file("proj/.charter/settings.yaml", "rules: {}\n", 0o644)
	tr.file("proj/.git", "gitdir: "+tr.p("gitdir")+"\n", 0o644)
	s := &Files{Fs: afero.NewOsFs()}
	if _, ok, _ := s.readBeneath(root, root+"/.charter/settings.yaml", KindSettings); ok {
		t.Fatal("the fast read answered in a worktree")
	}
	if got, err := s.ReadWithin(root, root+"/.charter/settings.yaml", KindSettings); err != nil || string(got) != "rules: {}\n" {
		t.Fatalf("ReadWithin = %q, %v", got, err)
	}
}

// A helper flips the project's folder with a link out of it while reads
// go on: no read returns the outside file, whichever of the two reads
// answers.
func TestReadBeneathSwapRace(t *testing.T) {
	tr, root := project(t)
	tr.file("proj/sub/f.yaml", "inside\n", 0o644)
	tr.file("outside/dir/f.yaml", "outside\n", 0o644)
	tr.link("proj/sub.swap", "../outside/dir")
	stop := swaptest.Flip(t, tr.p("proj/sub"), tr.p("proj/sub.swap"))
	s := &Files{Fs: afero.NewOsFs()}
	var wg sync.WaitGroup
	var mu sync.Mutex
	seen := map[string]int{}
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 2000 {
				got, err := s.ReadWithin(root, tr.p("proj/sub/f.yaml"), KindSettings)
				key := string(got)
				if err != nil {
					key = codeOf(err)
				}
				mu.Lock()
				seen[key]++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	stop()
	if seen["outside\n"] > 0 {
		t.Fatalf("a read inside the project returned the file outside it: %v", seen)
	}
	if seen["inside\n"] == 0 {
		t.Fatalf("no read returned the project's file: %v", seen)
	}
	t.Logf("outcomes: %v", seen)
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// While a run holds the set, reads below one root open it once; the
// handle closes when the last run ends, not before a read using it ends.
func TestRootHeldForTheRun(t *testing.T) {
	root := t.TempDir()
	opened := 0
	open := func(p string) (int, error) { opened++; return openRoot(p) }
	h := &heldSet{}
	for range 3 { // no run: each read opens its own
		_, release, err := h.rootFD(root, open)
		must(t, err)
		release()
	}
	h.hold()
	fd, release, err := h.rootFD(root, open)
	must(t, err)
	for range 3 {
		_, r, err := h.rootFD(root, open)
		must(t, err)
		r()
	}
	if opened != 4 {
		t.Fatalf("%d opens, want 3 without a run and 1 in it", opened)
	}
	h.done()
	if _, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0); err != nil {
		t.Fatalf("the handle closed while a read used it: %v", err)
	}
	release()
	if _, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0); err != unix.EBADF {
		t.Fatalf("the handle stayed open after the run and its last read: %v", err)
	}
}

// Runs start and end while reads go on: every read returns the file, and
// no handle is left open.
func TestReadBeneathWhileRunsComeAndGo(t *testing.T) {
	tr, root := project(t)
	tr.file("proj/sub/f.yaml", "inside\n", 0o644)
	s := &Files{Fs: afero.NewOsFs()}
	before := openFDs(t)
	stop := make(chan struct{})
	var runs sync.WaitGroup
	runs.Add(1)
	go func() {
		defer runs.Done()
		for {
			select {
			case <-stop:
				return
			default:
				s.Hold()()
			}
		}
	}()
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 3000 {
				done := func() {}
				if g%2 == 0 { // half the reads in a run of their own
					done = s.Hold()
				}
				got, err := s.ReadWithin(root, tr.p("proj/sub/f.yaml"), KindSettings)
				done()
				if err != nil || string(got) != "inside\n" {
					t.Errorf("read %q, %v", got, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(stop)
	runs.Wait()
	if after := openFDs(t); after != before {
		t.Fatalf("open descriptors: %d before, %d after", before, after)
	}
}
