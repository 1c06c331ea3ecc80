// Package fsys is charter's one edge to the operating system's file system
// for writes: it walks a path one component at a time, decides whether each
// directory lies inside the companion's tree by its identity (device and
// inode, never by how the path is spelled), stops at a link inside that
// tree until the write is confirmed, follows links outside it, and writes
// in the very directory it checked. Locks live here too.
//
// With Options.Boundary a walk also confines a path a repository chose to
// the project (boundary.go): a link that leads out of it is refused.
//
// Properties (GUARD.md):
//  1. A link inside the companion tree on the way to a target blocks the
//     write until it is confirmed.
//  2. Inside or outside is decided by (dev, ino): an alias spelling of the
//     companion home is the tree.
//  3. The directory that was checked is the directory that is written: the
//     walk holds directory handles opened without following links, and the
//     temporary file and the rename use the final handle.
//  4. No link is ever removed, replaced or re-pointed: a followed link's
//     target is written atomically in the target's own directory.
//  5. A failed or refused write leaves no temporary file.
//
// On Linux, macOS and the BSDs (walker_unix.go walks, walk_unix.go reads
// and writes) all five hold. Elsewhere
// (Windows) portable.go does what the platform allows; its doc comment
// names the window that remains.
package fsys

import (
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/agentkit/charter/core/errcode"
)

// MaxLinks bounds the links one walk follows, as the kernel does (Linux's
// MAXSYMLINKS is 40): more means a loop, or a chain no one meant to build.
const MaxLinks = 40

// Options steer a walk.
type Options struct {
	// Home is the companion home. When it is empty or does not exist,
	// nothing is inside the tree.
	Home string
	// Confirmed lets the walk follow links inside the tree instead of
	// stopping at the first one with *BlockedError.
	Confirmed bool
	// Create makes missing directories on the way with DirMode (less the
	// umask). Without it a walk creates nothing and reports Missing.
	Create  bool
	DirMode fs.FileMode
	// StageNew (a Batch with Create) makes each missing directory under a
	// temporary name and writes the files below it in place: Publish
	// renames the whole folder into place, so it appears at once, full.
	StageNew bool
	// Boundary, when set, is the project a repository's path must stay
	// in: the target's directory must be it or lie below it, whatever
	// links lead there (boundary.go), else the walk fails with
	// *OutsideError. An existing directory; links in its own spelling are
	// the user's and followed.
	Boundary string
	// GitDirs are more folders a walk with Boundary never reaches, besides
	// the boundary's own ".git" (repo.go): where a ".git" file points.
	GitDirs []string
	// StrictLinks, with Boundary, refuses a link met inside the boundary
	// (*LinkedError), unless the walk ends at one of LinkTo (paths
	// relative to the boundary, slash-separated).
	StrictLinks bool
	LinkTo      []string

	held *heldSet // the Files' folders a walk starts from (held_unix.go)
}

// Perm says which mode a written file gets.
type Perm struct {
	// Fixed, when not zero, is the file's mode after every write, whatever
	// mode an older file had: for charter's own files.
	Fixed fs.FileMode
	// New is a new file's mode, less the umask, when Fixed is zero; an
	// existing file keeps its mode (it belongs to the user or a repository).
	New fs.FileMode
}

// mode is the mode a write gives the file: an existing file's own (old),
// a new file New, Fixed over both, 0600 when none says; exact when the
// umask must not narrow it.
func (p Perm) mode(old fs.FileMode, exists bool) (mode fs.FileMode, exact bool) {
	mode = p.New
	if exists {
		mode, exact = old, true
	}
	if p.Fixed != 0 {
		mode, exact = p.Fixed, true
	}
	if mode == 0 {
		mode = 0o600
	}
	return mode, exact
}

// BlockedError is a walk that met a link inside the companion tree without
// confirmation. Core turns it into its SharedWriteError.
type BlockedError struct {
	Link string // the link, spelled as the user spelled the path where possible
}

func (e *BlockedError) Error() string {
	return fmt.Sprintf("%s is a link inside the agent-switch tree: a write through it affects every profile that shares it", e.Link)
}

// Code is the stable machine name of the error.
func (e *BlockedError) Code() string { return errcode.SharedWrite }

// LinkLoopError is a path whose links do not end.
type LinkLoopError struct{ Path string }

func (e *LinkLoopError) Error() string {
	return fmt.Sprintf("%s: more than %d symbolic links on the way, probably a loop: fix or remove the link that points back", e.Path, MaxLinks)
}

// Code is the stable machine name of the error.
func (e *LinkLoopError) Code() string { return errcode.LinkLoop }

// IsDirError is a file target that is a directory.
type IsDirError struct{ Path string }

func (e *IsDirError) Error() string {
	return fmt.Sprintf("%s is a directory, where charter expects a file: move the directory away or point charter at a file", e.Path)
}

// Code is the stable machine name of the error.
func (e *IsDirError) Code() string { return errcode.IsDirectory }

// NotDirError is a path with a file where a directory must be.
type NotDirError struct{ Path string }

func (e *NotDirError) Error() string {
	return fmt.Sprintf("%s is not a directory, but a path charter writes goes through it: move the file away", e.Path)
}

// Code is the stable machine name of the error.
func (e *NotDirError) Code() string { return errcode.NotDirectory }

// NotRegularError is a target that is neither a file nor a link (a FIFO, a
// socket, a device): replacing it would break whatever uses it, and
// reading it could block or never end.
type NotRegularError struct {
	Path   string
	What   string // what is there ("a named pipe", "a device"); "" when unknown
	Target string // where a link at Path leads, when it is one
	Read   bool   // refused for a read, not a write
}

func (e *NotRegularError) Error() string {
	what := e.What
	if what == "" {
		what = "an irregular file"
	}
	if e.Target != "" {
		what = fmt.Sprintf("a link to %s, %s", e.Target, what)
	}
	if e.Read {
		return fmt.Sprintf("%s is %s, not a regular file: charter reads only regular files; replace it with a file or remove it", e.Path, what)
	}
	return fmt.Sprintf("%s is not a regular file: charter does not replace it; remove it or point charter elsewhere", e.Path)
}

// Code is the stable machine name of the error.
func (e *NotRegularError) Code() string { return errcode.NotRegularFile }

// ReadOnlyError is a target whose owner took away its write bit. Like a
// careful editor, charter does not replace such a file behind its back.
type ReadOnlyError struct {
	Path string
	Mode fs.FileMode
}

func (e *ReadOnlyError) Error() string {
	return fmt.Sprintf("%s is read-only (mode %04o): charter does not replace it; run `chmod u+w %s` to let charter write it", e.Path, uint32(e.Mode), e.Path)
}

// Code is the stable machine name of the error.
func (e *ReadOnlyError) Code() string { return errcode.ReadOnlyFile }

// ChangedError is a target that changed kind while charter wrote it (it
// became a link or a directory after the walk): nothing was written.
type ChangedError struct{ Path, What string }

func (e *ChangedError) Error() string {
	return fmt.Sprintf("%s %s while charter was writing it: nothing was written; run the command again", e.Path, e.What)
}

// Code is the stable machine name of the error.
func (e *ChangedError) Code() string { return errcode.ChangedDuringWrite }

// NotAbsError is a walk asked for a relative path; core always gives
// absolute, cleaned ones.
type NotAbsError struct{ Path string }

func (e *NotAbsError) Error() string {
	return fmt.Sprintf("%s is not an absolute path", e.Path)
}

// Code is the stable machine name of the error.
func (e *NotAbsError) Code() string { return errcode.NotAbsolute }

// comp is one component still to walk.
type comp struct {
	name string
	// shown is the path as the user spelled it up to and including this
	// component; "" for components that come from a link's text, which
	// the user never wrote.
	shown string
}

// userComps splits a clean absolute path into components, each with the
// user's own spelling of the path up to it.
func userComps(path string) []comp {
	vol := filepath.VolumeName(path)
	rest := path[len(vol):]
	var out []comp
	for i := 0; i < len(rest); {
		for i < len(rest) && isSep(rest[i]) {
			i++
		}
		j := i
		for j < len(rest) && !isSep(rest[j]) {
			j++
		}
		if j > i {
			out = append(out, comp{name: rest[i:j], shown: path[:len(vol)+j]})
		}
		i = j
	}
	return out
}

// linkComps splits a link's text; "" and "." need no step.
func linkComps(text string) []comp {
	var out []comp
	for _, n := range strings.FieldsFunc(text, func(r rune) bool { return r < 0x80 && isSep(byte(r)) }) {
		if n != "." {
			out = append(out, comp{name: n})
		}
	}
	return out
}

func isSep(c byte) bool { return c == '/' || (runtime.GOOS == "windows" && c == '\\') }

// textKey is the lock key of a file by the physical path the walk found.
// It does not change when a missing directory is created, which a key by
// identity cannot promise. Case-insensitive platforms fold it.
func textKey(dir, name string) string {
	k := "path:" + filepath.Join(dir, name)
	if runtime.GOOS == "darwin" || runtime.GOOS == "windows" {
		k = strings.ToLower(k)
	}
	return k
}

// writeParts writes parts one after the other.
func writeParts(w io.Writer, parts [][]byte) error {
	for _, p := range parts {
		if _, err := w.Write(p); err != nil {
			return err
		}
	}
	return nil
}
