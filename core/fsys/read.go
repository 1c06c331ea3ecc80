package fsys

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/agentkit/charter/core/errcode"
)

// Kind is a kind of file charter reads but did not write itself: a
// repository, a user or another program put it there, so it may be a
// named pipe (a read that never starts), a device such as /dev/zero (a
// read that never ends) or simply huge. Every such read goes through
// ReadFile, Open or a Target's Read and Open, which open only regular
// files, never block on opening, and read at most the kind's cap.
//
// The caps, in one place (docs/files.md repeats them):
//
//	KindInstructions  64 MiB  CLAUDE.md, AGENTS.md, GEMINI.md and the other
//	                          instruction files apply keeps a block in
//	                          (a 20 MiB CLAUDE.md is benchmarked)
//	KindSettings       1 MiB  settings layers, the policy file, the copy
//	                          `settings edit` hands the editor
//	KindAgentJSON     16 MiB  an agent's settings.json, .mcp.json, hooks.json
//	KindCoverage     512 MiB  coverage reports (streamed, never held whole)
//	KindManifest       1 MiB  a companion's package.json, package-manager shims
//	KindState         16 MiB  charter's own files (token, discovery file,
//	                          dismissals, gate state): someone else may
//	                          still have put something in their place
//	KindContent        8 MiB  a rule, skill, command or subagent source and
//	                          a skill's other files
type Kind int

// The kinds; the zero Kind is KindInstructions, the largest cap of a file
// read whole, for a write whose caller named no kind.
const (
	KindInstructions Kind = iota
	KindSettings
	KindAgentJSON
	KindCoverage
	KindManifest
	KindState
	KindContent
)

var kinds = [...]struct {
	name string
	max  int64
}{
	KindInstructions: {"agent instruction file", 64 << 20},
	KindSettings:     {"settings file", 1 << 20},
	KindAgentJSON:    {"agent JSON file", 16 << 20},
	KindCoverage:     {"coverage report", 512 << 20},
	KindManifest:     {"package manifest", 1 << 20},
	KindState:        {"charter state file", 16 << 20},
	KindContent:      {"content source", 8 << 20},
}

// Max is the most bytes charter reads of a file of kind k.
func (k Kind) Max() int64 { return kinds[k].max }

// String names the kind for messages.
func (k Kind) String() string { return kinds[k].name }

// TooLargeError is a file larger than charter reads of its kind. Nothing
// past the cap was read.
type TooLargeError struct {
	Path string
	Kind Kind
	Size int64 // the size fstat reported, 0 when only reading found it
}

func (e *TooLargeError) Error() string {
	size := "larger than"
	if e.Size > 0 {
		size = fmt.Sprintf("%s, larger than", human(e.Size))
	}
	return fmt.Sprintf("%s is %s the %s charter reads of a %s: look for what filled it (or a link that leads somewhere else) and remove it",
		e.Path, size, human(e.Kind.Max()), e.Kind)
}

// Code is the stable machine name of the error.
func (e *TooLargeError) Code() string { return errcode.TooLarge }

// human spells a size in whole MiB when it is one, else in bytes.
func human(n int64) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d bytes", n)
}

// Describe says what a file of mode m is, for a message: "a named pipe".
func Describe(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "a regular file"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "an irregular file"
}

// refuse is the error for a file of mode m where a regular file must be.
func refuse(path string, m fs.FileMode) error {
	if m.IsDir() {
		return &IsDirError{Path: path}
	}
	e := &NotRegularError{Path: path, What: Describe(m), Read: true}
	if real, err := filepath.EvalSymlinks(path); err == nil && real != path {
		e.Target = real
	} else if text, err := os.Readlink(path); err == nil {
		e.Target = text
	}
	return e
}

// ReadFile reads path, following links as the operating system does, when
// it is a regular file of at most k.Max() bytes. A missing file is an
// error that wraps fs.ErrNotExist, as os.ReadFile's is.
func ReadFile(path string, k Kind) ([]byte, error) { return readFile(path, k) }

// ReadAll reads the whole of f, opened at path, when it holds at most
// k.Max() bytes; an empty file is empty, never nil. It never holds more
// than the cap and a read's worth: a file that grows past the cap while it
// is read is refused, like one that was too large from the start.
func ReadAll(f interface {
	io.Reader
	Stat() (fs.FileInfo, error)
}, path string, k Kind) ([]byte, error) {
	max := k.Max()
	var size int64
	if fi, err := f.Stat(); err == nil {
		size = fi.Size()
	}
	if size > max {
		return nil, &TooLargeError{Path: path, Kind: k, Size: size}
	}
	// The buffer grows by doubling, but never past max+1 bytes: a file
	// whose size said nothing (or that grows) costs at most about three
	// times the cap in allocations, and is refused once it passes it.
	// A regular file's size is exact: one byte more sees its end.
	start := size + 1
	if size == 0 {
		start = 512
	}
	buf := make([]byte, 0, min(start, max+1))
	for {
		if len(buf) == cap(buf) {
			if int64(len(buf)) > max {
				return nil, &TooLargeError{Path: path, Kind: k}
			}
			next := make([]byte, len(buf), min(int64(2*cap(buf)), max+1))
			copy(next, buf)
			buf = next
		}
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", path, err)
		}
	}
	if int64(len(buf)) > max {
		return nil, &TooLargeError{Path: path, Kind: k}
	}
	return buf, nil
}

// checkOpened refuses an opened file that is not regular or is too large;
// it closes f then.
func checkOpened(f *os.File, path string, k Kind) error {
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = refuse(path, fi.Mode())
	} else if err == nil && fi.Size() > k.Max() {
		err = &TooLargeError{Path: path, Kind: k, Size: fi.Size()}
	} else if err != nil {
		err = fmt.Errorf("read %s: %w", path, err)
	}
	if err != nil {
		f.Close()
	}
	return err
}

// preCheck looks at path before it is opened, following links: a FIFO or a
// device is refused without being opened at all (opening some devices does
// something). The check after the open is the one that holds.
func preCheck(path string, k Kind) error {
	fi, err := os.Stat(path)
	switch {
	case err != nil:
		return err
	case !fi.Mode().IsRegular():
		return refuse(path, fi.Mode())
	case fi.Size() > k.Max():
		return &TooLargeError{Path: path, Kind: k, Size: fi.Size()}
	}
	return nil
}

// kernelSees is the refusal of a file the walk found missing but the
// operating system, following links itself, finds as something other than
// a regular file: /dev/stdin leads through /proc/self/fd to a pipe by a
// "magic" link whose text ("pipe:[…]") names nothing. nil otherwise.
func kernelSees(path string) error {
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().IsRegular() {
		return nil
	}
	return refuse(path, fi.Mode())
}
