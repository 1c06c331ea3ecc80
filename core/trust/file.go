package trust

import (
	"fmt"
	"io/fs"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/errcode"
	"github.com/agentkit/charter/helpers/shell"
)

// FileError is why charter does not believe trust.json. Whoever can
// write that file can make a repository's commands run as the user, so a
// file another user owns, one that group or others may write, or one that
// is not a regular file counts as holding no entry: every project is
// untrusted until the user fixes it. Reads never fail on it (ping, the
// hooks and `gate run` go on, untrusted); doctor shows it, and `charter
// trust` refuses to carry its entries into a new file.
type FileError struct {
	Path    string
	Problem string // what is wrong, after the path: "is writable by …"
	Fix     string // the command or step that fixes it
	Err     error  // the read's own refusal, when there is one
}

func (e *FileError) Error() string {
	return fmt.Sprintf("%s %s, so charter trusts no project until it is fixed: %s", e.Path, e.Problem, e.Fix)
}

// Code is untrusted: what the problem does is leave every project so.
func (e *FileError) Code() string { return errcode.Untrusted }

func (e *FileError) Unwrap() error { return e.Err }

// unsafeFile is the problem with a trust file fstat describes as fi: not
// the user's own, or writable by someone else. nil where files have no
// owner (Windows, whose modes say nothing of other users either).
func unsafeFile(s *core.System, path string, fi fs.FileInfo) *FileError {
	euid, ok := s.RunsAs()
	if !ok {
		return nil
	}
	q := shell.Quote(path)
	if uid, known := core.FileOwner(fi); known && uid != euid {
		return &FileError{Path: path,
			Problem: fmt.Sprintf("is owned by uid %d, not by you (uid %d)", uid, euid),
			Fix:     fmt.Sprintf("if its entries are yours, take it back (`sudo chown %d %s && chmod 600 %s`); else remove it (`rm %s`) and trust your projects again", euid, q, q, q)}
	}
	if perm := fi.Mode().Perm(); perm&0o022 != 0 {
		return &FileError{Path: path,
			Problem: fmt.Sprintf("is writable by group or others (mode %04o)", perm),
			Fix:     fmt.Sprintf("someone else may have trusted a project in your name: check its entries, then `chmod 600 %s` (or remove it, `rm %s`, and trust your projects again)", q, q)}
	}
	return nil
}

// unreadable is a trust file the capped, non-blocking read refused (a
// named pipe, a device, a directory, a file over the cap) or could not read.
func unreadable(path string, err error) *FileError {
	return &FileError{Path: path, Problem: "cannot be read as charter's trust file (" + err.Error() + ")", Err: err,
		Fix: fmt.Sprintf("remove it (`rm %s`) and trust your projects again; charter writes a new one", shell.Quote(path))}
}

// dangling is the problem of a trust file that is a link to nothing,
// nil when there is simply no trust file.
func dangling(s *core.System, path string) *FileError {
	ls, ok := s.Fs.(afero.Lstater)
	if !ok {
		return nil
	}
	fi, lstated, err := ls.LstatIfPossible(path)
	if err != nil || !lstated || fi.Mode()&fs.ModeSymlink == 0 {
		return nil
	}
	to := "something"
	if lr, ok := s.Fs.(afero.LinkReader); ok {
		if text, err := lr.ReadlinkIfPossible(path); err == nil {
			to = text
		}
	}
	return &FileError{Path: path, Problem: fmt.Sprintf("is a link to %s, which does not exist", to),
		Fix: fmt.Sprintf("remove the link (`rm %s`) or restore what it leads to", shell.Quote(path))}
}
