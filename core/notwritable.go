package core

import (
	"errors"
	"fmt"
	"io/fs"
	"syscall"

	"github.com/agentkit/charter/helpers/shell"
)

// NotWritableError is a write the operating system refused for its
// directory: no permission, or a read-only file system (a read-only HOME
// in a container, a sandbox). It names the directory to fix and, for a
// file under the config root, the way around it, as doctor's config-root
// check does.
type NotWritableError struct {
	Target   string // the file charter was writing
	Dir      string // the directory that refused
	ReadOnly bool   // a read-only file system, not permissions
	Root     string // the config root, when Target lies under it
	Err      error
}

func (e *NotWritableError) Code() string  { return CodeNotWritable }
func (e *NotWritableError) Unwrap() error { return e.Err }

func (e *NotWritableError) Error() string {
	var why, fix string
	if e.ReadOnly {
		why = fmt.Sprintf("%s is on a read-only file system", e.Dir)
		fix = "mount it writable"
	} else {
		why = fmt.Sprintf("charter may not write in %s", e.Dir)
		fix = fmt.Sprintf("make it writable for your user (chmod u+rwx %s) and check its owner", shell.Quote(e.Dir))
	}
	if e.Root != "" {
		fix += fmt.Sprintf(", or choose another config root with --config-root or %s (the root now is %s)", ConfigHomeVar, e.Root)
	}
	return fmt.Sprintf("cannot write %s: %s: %s; `charter doctor` checks the setup", e.Target, why, fix)
}

// NotWritable turns an uncoded permission or read-only failure of a write
// to target into a NotWritableError; any other error is returned as is.
// root is the run's config root ("" when unknown): a target inside it gets
// the hint to choose another.
func (s *System) NotWritable(target string, err error, root string) error {
	if err == nil || ErrorCode(err) != CodeInternal {
		return err
	}
	ro := errors.Is(err, syscall.EROFS)
	if !ro && !errors.Is(err, fs.ErrPermission) {
		return err
	}
	at := s.Paths.Dir(target)
	var pe *fs.PathError
	if errors.As(err, &pe) {
		at = pe.Path
		if temporary(at) {
			at = s.Paths.Dir(at)
		}
	}
	// The directory that refused is the nearest one that exists: a lock
	// or a new directory fails in its parent.
	for {
		if fi, err := s.Fs.Stat(at); err == nil && fi.IsDir() {
			break
		}
		parent := s.Paths.Dir(at)
		if parent == at {
			break
		}
		at = parent
	}
	e := &NotWritableError{Target: target, Dir: at, ReadOnly: ro, Err: err}
	if root != "" {
		if _, inside := s.Paths.Within(root, target); inside {
			e.Root = root
		}
	}
	return e
}
