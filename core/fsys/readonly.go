package fsys

import (
	"fmt"
	"os"
	"time"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core/errcode"
)

// ReadOnlyFs is a file system that reads through Base and refuses every
// write: what MCP and a dry run are given, so that a promise that they
// never write is kept by the type, not by care. A write fails with
// *NoWriteError before anything on the disk changes.
type ReadOnlyFs struct {
	Base afero.Fs
	// Why names the run that only reads, for the error: "the MCP server",
	// "a dry run".
	Why string
}

// NewReadOnlyFs wraps base; a ReadOnlyFs is returned as it is.
func NewReadOnlyFs(base afero.Fs, why string) *ReadOnlyFs {
	if ro, ok := base.(*ReadOnlyFs); ok {
		return ro
	}
	return &ReadOnlyFs{Base: base, Why: why}
}

// NoWriteError is a write asked of a run that only reads.
type NoWriteError struct {
	Op, Path, Why string
}

func (e *NoWriteError) Error() string {
	why := e.Why
	if why == "" {
		why = "this run"
	}
	return fmt.Sprintf("%s %s: %s only reads and writes nothing; run the command without it (for instance without --dry-run) to write", e.Op, e.Path, why)
}

// Code is the stable machine name of the error: the target cannot be
// written.
func (e *NoWriteError) Code() string { return errcode.ReadOnlyFile }

// Refuse is the error of a write op on path.
func (r *ReadOnlyFs) Refuse(op, path string) error {
	return &NoWriteError{Op: op, Path: path, Why: r.Why}
}

// IsOS reports whether afs reads the operating system's file system: the
// OS itself, or a ReadOnlyFs over it.
func IsOS(afs afero.Fs) bool {
	if ro, ok := afs.(*ReadOnlyFs); ok {
		afs = ro.Base
	}
	_, ok := afs.(*afero.OsFs)
	return ok
}

func (r *ReadOnlyFs) Name() string { return "ReadOnlyFs(" + r.Base.Name() + ")" }

func (r *ReadOnlyFs) Open(name string) (afero.File, error) { return r.Base.Open(name) }

func (r *ReadOnlyFs) Stat(name string) (os.FileInfo, error) { return r.Base.Stat(name) }

// LstatIfPossible keeps links visible where the base shows them.
func (r *ReadOnlyFs) LstatIfPossible(name string) (os.FileInfo, bool, error) {
	if l, ok := r.Base.(afero.Lstater); ok {
		return l.LstatIfPossible(name)
	}
	fi, err := r.Base.Stat(name)
	return fi, false, err
}

// ReadlinkIfPossible reads a link where the base can.
func (r *ReadOnlyFs) ReadlinkIfPossible(name string) (string, error) {
	if l, ok := r.Base.(afero.LinkReader); ok {
		return l.ReadlinkIfPossible(name)
	}
	return "", &os.PathError{Op: "readlink", Path: name, Err: afero.ErrNoReadlink}
}

// OpenFile opens for reading only; any flag that writes, creates or
// truncates is refused.
func (r *ReadOnlyFs) OpenFile(name string, flag int, perm os.FileMode) (afero.File, error) {
	if flag&(os.O_WRONLY|os.O_RDWR|os.O_APPEND|os.O_CREATE|os.O_TRUNC) != 0 {
		return nil, r.Refuse("write", name)
	}
	return r.Base.OpenFile(name, flag, perm)
}

func (r *ReadOnlyFs) Create(name string) (afero.File, error) { return nil, r.Refuse("create", name) }

func (r *ReadOnlyFs) Mkdir(name string, _ os.FileMode) error {
	return r.Refuse("create the folder", name)
}

func (r *ReadOnlyFs) MkdirAll(name string, _ os.FileMode) error {
	return r.Refuse("create the folder", name)
}

func (r *ReadOnlyFs) Remove(name string) error { return r.Refuse("remove", name) }

func (r *ReadOnlyFs) RemoveAll(name string) error { return r.Refuse("remove", name) }

func (r *ReadOnlyFs) Rename(oldname, _ string) error { return r.Refuse("rename", oldname) }

func (r *ReadOnlyFs) Chmod(name string, _ os.FileMode) error {
	return r.Refuse("change the mode of", name)
}

func (r *ReadOnlyFs) Chown(name string, _, _ int) error { return r.Refuse("change the owner of", name) }

func (r *ReadOnlyFs) Chtimes(name string, _, _ time.Time) error {
	return r.Refuse("change the times of", name)
}

// SymlinkIfPossible is refused: making a link writes.
func (r *ReadOnlyFs) SymlinkIfPossible(_, newname string) error {
	return r.Refuse("create the link", newname)
}
