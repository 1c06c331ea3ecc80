package fsys

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// gitDirs are the folders a ".git" file at the project root points to (a
// worktree's or a submodule's git folder): a walk confined to the project
// never reaches them, as it never reaches the root's own ".git"
// (fsys/repo.go). A ".git" folder or no ".git" at all gives none. The file
// is the repository's: read without following a link, and only its first
// line, as git reads it.
func (s *Files) gitDirs(root string) []string {
	if root == "" || !s.onOS() {
		return nil
	}
	return s.heldSet().gitDirs(root, findGitDirs)
}

func findGitDirs(root string) []string {
	name := filepath.Join(root, ".git")
	fi, err := os.Lstat(name)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > 4096 {
		return nil
	}
	f, err := Open(name, KindState) // a regular file, without blocking
	if err != nil {
		return nil
	}
	defer f.Close()
	if fi2, err := f.Stat(); err != nil || !os.SameFile(fi, fi2) {
		return nil // swapped for a link since the look: not git's file either
	}
	line, _ := bufio.NewReader(io.LimitReader(f, 4096)).ReadString('\n')
	dir, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
	if dir = strings.TrimSpace(dir); !ok || dir == "" {
		return nil
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(root, dir)
	}
	return []string{filepath.Clean(dir)}
}

// within is a read's walk confined to the project root: links out of it
// refused, its git folder never reached.
func (s *Files) within(root string) Options {
	return Options{Boundary: root, Confirmed: true, GitDirs: s.gitDirs(root), held: s.heldFor()}
}

// heldFor is the held folders for a walk on the operating system's file
// system; nil for any other.
func (s *Files) heldFor() *heldSet {
	if !s.onOS() {
		return nil
	}
	return s.heldSet()
}

// writeWalk is a write's walk for o.
func (s *Files) writeWalk(o WriteOptions) Options {
	opts := s.walkOptions(o.ConfirmShared, o.Within)
	opts.StrictLinks = o.Whole || len(o.LinkTo) > 0
	opts.LinkTo = o.LinkTo
	return opts
}
