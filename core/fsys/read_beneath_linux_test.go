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
	tr.dir("proj/.charter/sub", "proj/.git", "wt/proj", "mnt")
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
	for rel, fast := range cases {
		path := root + "/" + rel
		_, ok, _ := s.readBeneath(root, path, KindSettings)
		if ok != fast {
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
