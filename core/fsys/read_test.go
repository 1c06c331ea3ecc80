//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package fsys

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// watch fails the test when fn has not returned after a generous time: a
// read that blocks is the bug these tests look for, and no assertion is
// made on how fast a good one is.
func watch(t *testing.T, what string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn()
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatalf("%s: still reading after 30s (blocked on a FIFO or a device?)", what)
	}
}

// hostile makes every kind of file a read must refuse, each under the
// name a repository would give it, and returns name → what it is.
func hostile(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	out["fifo"] = "a named pipe"
	for name, target := range map[string]string{"zero": "/dev/zero", "stdin": "/dev/stdin", "tofifo": "fifo"} {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	out["zero"], out["tofifo"] = "a device", "a named pipe"
	// /dev/stdin leads to the process's standard input: a pipe here, as
	// for `charter mcp`, read through /proc/self/fd where there is one.
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close(); w.Close() })
	if _, err := os.Stat("/proc/self/fd"); err == nil {
		p := filepath.Join("/proc/self/fd", strconv.Itoa(int(r.Fd())))
		if err := os.Symlink(p, filepath.Join(dir, "pipe")); err != nil {
			t.Fatal(err)
		}
		out["pipe"] = "a named pipe"
	} else if runtime.GOOS == "linux" {
		t.Fatal("no /proc/self/fd on Linux")
	}
	return out
}

// Every read refuses a FIFO, a device and a pipe, names the path and what
// is there, and returns.
func TestReadRefusesWhatIsNotAFile(t *testing.T) {
	dir := t.TempDir()
	for name, what := range hostile(t, dir) {
		path := filepath.Join(dir, name)
		check := func(op string, err error) {
			t.Helper()
			var ne *NotRegularError
			if !errors.As(err, &ne) || ne.Code() != "not_regular_file" || ne.Path != path {
				t.Errorf("%s %s: %v", op, name, err)
				return
			}
			if name != "stdin" && !strings.Contains(err.Error(), what) {
				t.Errorf("%s %s: %q does not say %q", op, name, err, what)
			}
			if !strings.Contains(err.Error(), "replace it with a file or remove it") {
				t.Errorf("%s %s: %q says nothing to do", op, name, err)
			}
		}
		watch(t, name, func() {
			_, err := ReadFile(path, KindSettings)
			check("ReadFile", err)
			f, err := Open(path, KindInstructions)
			if f != nil {
				f.Close()
			}
			check("Open", err)
			tg, err := Walk(path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer tg.Close()
			// The walk reads /proc's magic links as text ("pipe:[…]"),
			// which names nothing; Read asks the kernel before it says
			// that nothing is there.
			_, err = tg.Read(KindAgentJSON)
			check("Target.Read", err)
		})
	}
	// A link names where it leads.
	_, err := ReadFile(filepath.Join(dir, "zero"), KindInstructions)
	if err == nil || !strings.Contains(err.Error(), "a link to /dev/zero, a device") {
		t.Errorf("zero: %v", err)
	}
}

// A file one byte over its kind's cap is refused, naming the file, its
// kind and the cap; one at the cap is read whole.
func TestReadCap(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "settings.yaml")
	limit := KindSettings.Max()
	if err := os.WriteFile(path, make([]byte, limit+1), 0o644); err != nil {
		t.Fatal(err)
	}
	tg, err := Walk(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tg.Close()
	_, rerr := ReadFile(path, KindSettings)
	_, terr := tg.Read(KindSettings)
	for op, err := range map[string]error{"ReadFile": rerr, "Target.Read": terr} {
		var te *TooLargeError
		if !errors.As(err, &te) || te.Code() != "file_too_large" || te.Path != path ||
			!strings.Contains(err.Error(), "the 1.0 MiB charter reads of a settings file") {
			t.Errorf("%s: %v", op, err)
		}
	}
	if err := os.Truncate(path, limit); err != nil {
		t.Fatal(err)
	}
	if data, err := ReadFile(path, KindSettings); err != nil || int64(len(data)) != limit {
		t.Fatalf("at the cap: %d bytes, %v", len(data), err)
	}
	if _, err := ReadFile(filepath.Join(dir, "none"), KindSettings); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing: %v", err)
	}
	if _, err := ReadFile(dir, KindSettings); !errors.As(err, new(*IsDirError)) {
		t.Fatalf("directory: %v", err)
	}
}

// endless is a file whose size says nothing (as /proc's files report 0)
// and whose content never ends.
type endless struct{}

func (endless) Read(p []byte) (int, error) { return len(p), nil }
func (endless) Stat() (fs.FileInfo, error) { return nil, errors.New("no size") }

// Memory stays bounded by the cap: a read of an endless file stops one
// byte past it, never reading the whole thing first.
func TestReadAllMemoryIsBounded(t *testing.T) {
	for _, k := range []Kind{KindSettings, KindAgentJSON} {
		var before, after runtime.MemStats
		var err error
		watch(t, k.String(), func() {
			runtime.ReadMemStats(&before)
			_, err = ReadAll(endless{}, "endless", k)
			runtime.ReadMemStats(&after)
		})
		if !errors.As(err, new(*TooLargeError)) {
			t.Fatalf("%s: %v", k, err)
		}
		if grew := after.TotalAlloc - before.TotalAlloc; grew > uint64(4*k.Max()) {
			t.Errorf("%s: allocated %d bytes for a cap of %d", k, grew, k.Max())
		}
	}
}

// The table: each kind has a name and a cap, and an instruction file's cap
// leaves room above the 20 MB CLAUDE.md the apply benchmark uses.
func TestKinds(t *testing.T) {
	for k := KindInstructions; k <= KindContent; k++ {
		if k.String() == "" || k.Max() < 1<<20 {
			t.Errorf("kind %d: %q %d", k, k, k.Max())
		}
	}
	if KindInstructions.Max() < 3*(20<<20) {
		t.Errorf("instructions cap %d", KindInstructions.Max())
	}
	var _ io.Reader = endless{}
}
