package core

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/agentkit/charter/core/fsys"
)

// ErrorMessage is err's text for people, the one every skin shows (the
// CLI's stderr and --json, the MCP server's errors). The operating
// system's part of it (`open /r/settings.yaml: not a directory` inside
// `read /r/settings.yaml: …`) is said in words, with each path named once,
// a temporary file never named, and what to do.
func (s *System) ErrorMessage(err error) string {
	msg := err.Error()
	var pe *fs.PathError
	if errors.As(err, &pe) {
		if inner := pe.Error(); strings.Contains(msg, inner) {
			before := msg[:strings.Index(msg, inner)]
			msg = strings.Replace(msg, inner, s.pathWords(pe.Path, pe.Err, before), 1)
		}
	}
	var le *os.LinkError // a rename: the temporary file onto the target
	if errors.As(err, &le) {
		if inner := le.Error(); strings.Contains(msg, inner) {
			before := msg[:strings.Index(msg, inner)]
			msg = strings.Replace(msg, inner, s.pathWords(le.New, le.Err, before), 1)
		}
	}
	return msg
}

// pathWords says what errno means for path. before is the message so far:
// a path it already names is not named again.
func (s *System) pathWords(path string, errno error, before string) string {
	dir := filepath.Dir(path)
	if temporary(path) {
		// The temporary file stands for its target in the same directory,
		// which the message names already.
		if errors.Is(errno, fs.ErrPermission) {
			return fmt.Sprintf("permission denied: charter may not create files in %s; check that directory's owner and permissions", dir)
		}
		return describeErrno(errno)
	}
	named := path
	if strings.Contains(before, path) {
		named = "it"
	}
	switch {
	case errors.Is(errno, syscall.ENOTDIR):
		if f := s.fileOnTheWay(path); f != "" {
			return fmt.Sprintf("%s is a file, not a directory: move it away, or choose another path", f)
		}
		return "a part of the path is a file, not a directory"
	case errors.Is(errno, fs.ErrPermission):
		if named == "it" {
			return fmt.Sprintf("permission denied: check the owner and permissions of %s and of %s", filepath.Base(path), dir)
		}
		return fmt.Sprintf("permission denied for %s: check its owner and permissions, and those of %s", path, dir)
	case errors.Is(errno, fs.ErrNotExist):
		if named == "it" {
			return "it does not exist"
		}
		return path + " does not exist"
	}
	if named == "it" {
		return describeErrno(errno)
	}
	return path + ": " + describeErrno(errno)
}

// describeErrno names the common failures in words.
func describeErrno(errno error) string {
	switch {
	case errors.Is(errno, fs.ErrPermission):
		return "permission denied"
	case errors.Is(errno, syscall.EISDIR):
		return "it is a directory, not a file"
	case errors.Is(errno, syscall.EROFS):
		return "the file system is read-only"
	case errors.Is(errno, syscall.ENOSPC):
		return "the disk is full"
	case errors.Is(errno, syscall.ELOOP):
		return "too many symbolic links on the way (a link that points to itself?)"
	}
	return errno.Error()
}

// temporary reports whether path is one of the write path's temporary
// files (fsys.TempName).
func temporary(path string) bool {
	_, ok := fsys.TempOf(filepath.Base(path))
	return ok
}

// fileOnTheWay returns the first of path's ancestors, or path itself,
// that exists and is not a directory, or "".
func (s *System) fileOnTheWay(path string) string {
	var chain []string
	for p := path; ; p = filepath.Dir(p) {
		chain = append(chain, p)
		if filepath.Dir(p) == p {
			break
		}
	}
	for i := len(chain) - 1; i >= 0; i-- {
		fi, err := s.Fs.Stat(chain[i])
		if err == nil && !fi.IsDir() {
			return chain[i]
		}
	}
	return ""
}
