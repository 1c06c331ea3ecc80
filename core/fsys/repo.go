package fsys

import (
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/agentkit/charter/core/errcode"
)

// A walk with Options.Boundary treats the project as a repository that may
// be hostile (SPEC §12 decisions of 2026-11-27):
//
//   - Its git folder is never reached: not the ".git" entry of the
//     boundary (a folder, or the file of a worktree or submodule), nor any
//     folder in Options.GitDirs (where such a file points), whatever
//     spelling or link leads there. A hook or config written there runs on
//     the user's next git command. Checked before each step, so nothing is
//     created there either.
//   - With Options.StrictLinks a link met inside the boundary is refused:
//     a whole projected file or folder is never written through one. With
//     Options.LinkTo as well, a link is followed when the file it ends at
//     is one of LinkTo (CLAUDE.md -> AGENTS.md: one file, one block). The
//     walk goes on to the link's end, creating nothing past the link, so
//     that a link into the git folder is named as such.

// GitDirError is a path that leads into the repository's git folder.
type GitDirError struct {
	Path string // the path as given
	Link string // the first link followed inside the project; "" when none
	Git  string // the git folder's entry as reached
}

func (e *GitDirError) Error() string {
	if e.Link != "" {
		return fmt.Sprintf("%s is a link that leads into the repository's git folder (%s): charter never writes there; remove the link", e.Link, e.Git)
	}
	return fmt.Sprintf("%s lies in the repository's git folder (%s): charter never reads or writes there", e.Path, e.Git)
}

// Code is the stable machine name of the error.
func (e *GitDirError) Code() string { return errcode.GitDir }

// LinkedError is a project target reached through a link charter does not
// write through.
type LinkedError struct {
	Path string // the path as given
	Link string // the link met inside the project
	To   string // where it ended, when it was followed to the end
}

func (e *LinkedError) Error() string {
	if e.To != "" {
		return fmt.Sprintf("%s is a link to %s, which is not a file charter writes in this project: charter does not write through it; remove the link or point it at the file it stands for", e.Link, e.To)
	}
	return fmt.Sprintf("%s is a link inside the project: charter never writes a projected file or folder through a link; remove the link (charter writes the file in its place)", e.Link)
}

// Code is the stable machine name of the error.
func (e *LinkedError) Code() string { return errcode.LinkedTarget }

// isGitName reports whether an entry's name is ".git" as the file system
// may match it (case-insensitive where the platform usually is).
func isGitName(name string) bool { return foldName(name) == ".git" }

// linked is the verdict of StrictLinks on a walk that followed link (the
// first inside the boundary; "" for none) and ended at end ("" for a
// directory).
func (o Options) linked(path, link, base, end string) error {
	switch {
	case !o.StrictLinks || link == "":
		return nil
	case len(o.LinkTo) == 0:
		return &LinkedError{Path: path, Link: link}
	case end == "" || !o.linkTo(base, end):
		return &LinkedError{Path: path, Link: link, To: end}
	}
	return nil
}

// linkTo reports whether the walk that followed a link inside the boundary
// may end at the physical path end, the boundary's physical path being
// base: only at one of LinkTo, and never when StrictLinks holds without it.
func (o Options) linkTo(base, end string) bool {
	if base == "" {
		return false
	}
	rel, err := filepath.Rel(base, end)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return false
	}
	rel = foldName(filepath.ToSlash(rel))
	return slices.ContainsFunc(o.LinkTo, func(p string) bool { return foldName(p) == rel })
}

// foldName is name as a case-insensitive platform compares it.
func foldName(name string) string {
	if runtime.GOOS == "darwin" || runtime.GOOS == "windows" {
		return strings.ToLower(name)
	}
	return name
}

// DanglingError is a write through a link whose target's folder does not
// exist. charter makes the folders a path of its own needs, never the ones
// a link names: the link's owner meant a place that is not there.
type DanglingError struct {
	Path    string // the path as given
	Link    string // the link followed
	Missing string // the first folder missing on the link's way
}

func (e *DanglingError) Error() string {
	return fmt.Sprintf("%s is a link to a place that does not exist (%s is missing): charter does not create the folders a link names; create %s, or remove the link", e.Link, e.Missing, e.Missing)
}

// Code is the stable machine name of the error.
func (e *DanglingError) Code() string { return errcode.DanglingLink }
