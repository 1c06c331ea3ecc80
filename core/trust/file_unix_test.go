//go:build unix

package trust

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/profile"
)

// within fails the test when f has not returned after a few seconds: a
// read that blocks (a named pipe) must fail the test, not hang it.
func within[T any](t *testing.T, what string, f func() T) T {
	t.Helper()
	done := make(chan T, 1)
	go func() { done <- f() }()
	select {
	case v := <-done:
		return v
	case <-time.After(5 * time.Second):
		t.Fatalf("%s blocked", what)
		panic("unreachable")
	}
}

// A trust file charter cannot believe trusts nothing: every read says
// "no entry" without an error (ping, the hooks and the gate run go on,
// untrusted), FileProblem names the problem and its fix, and
// Record refuses to carry its entries into a file the user owns.
func TestTrustFileNotBelieved(t *testing.T) {
	sha := strings.Repeat("a", 64)
	good := `{"version":1,"projects":[{"root":"/p","sha256":"` + sha + `","trusted":"2026-01-01T00:00:00Z"}]}`
	cases := []struct {
		name    string
		setup   func(t *testing.T, s *core.System, path string)
		problem string // in the problem and its fix
		refused bool   // Record refuses (else it writes a new file)
	}{
		{"mode 0666", func(t *testing.T, s *core.System, path string) { writeMode(t, path, good, 0o666) }, "chmod 600", true},
		{"mode 0620", func(t *testing.T, s *core.System, path string) { writeMode(t, path, good, 0o620) }, "mode 0620", true},
		{"another owner", func(t *testing.T, s *core.System, path string) {
			writeMode(t, path, good, 0o600)
			other := os.Geteuid() + 1 // the file is the test's: charter runs as someone else
			s.Euid = func() int { return other }
		}, "sudo chown", true},
		{"named pipe", func(t *testing.T, s *core.System, path string) {
			if err := syscall.Mkfifo(path, 0o600); err != nil {
				t.Skipf("no named pipes here: %v", err)
			}
		}, "a named pipe", true},
		{"dangling link", func(t *testing.T, s *core.System, path string) {
			if err := os.Symlink(filepath.Join(filepath.Dir(path), "gone.json"), path); err != nil {
				t.Fatal(err)
			}
		}, "gone.json, which does not exist", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := core.NewSystem(afero.NewOsFs(), []string{"HOME=" + t.TempDir()}, time.Now, os.Getwd, profile.Guard)
			path, err := Path(s)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
				t.Fatal(err)
			}
			c.setup(t, s, path)
			type got struct {
				e   *Entry
				err error
			}
			g := within(t, "reading the trust file", func() got { e, err := EntryFor(s, "/p"); return got{e, err} })
			if g.e != nil || g.err != nil {
				t.Errorf("entry %+v, error %v: want no entry and no error", g.e, g.err)
			}
			bad := within(t, "checking the trust file", func() *FileError { return FileProblem(s) })
			if bad == nil || !strings.Contains(bad.Error(), path) || !strings.Contains(bad.Problem+bad.Fix, c.problem) {
				t.Fatalf("problem %v, want one naming %s and %q", bad, path, c.problem)
			}
			if core.ErrorCode(bad) != core.CodeUntrusted {
				t.Errorf("code %s", core.ErrorCode(bad))
			}
			err = within(t, "trusting a project", func() error { return Record(s, Entry{Root: "/q", SHA256: sha}, false) })
			if c.refused && err == nil {
				t.Errorf("Record wrote over a trust file it does not believe")
			}
			if !c.refused && err != nil {
				t.Errorf("RecordTrust: %v", err)
			}
		})
	}
}

// A trust file the user owns and only the user writes is believed.
func TestTrustFileBelieved(t *testing.T) {
	s := core.NewSystem(afero.NewOsFs(), []string{"HOME=" + t.TempDir()}, time.Now, os.Getwd, profile.Guard)
	path, _ := Path(s)
	os.MkdirAll(filepath.Dir(path), 0o700)
	writeMode(t, path, `{"version":1,"projects":[{"root":"/p","sha256":"`+strings.Repeat("b", 64)+`","trusted":"2026-01-01T00:00:00Z"}]}`, 0o644)
	if e, err := EntryFor(s, "/p"); e == nil || err != nil {
		t.Fatalf("%+v %v", e, err)
	}
	if bad := func() *FileError { return FileProblem(s) }(); bad != nil {
		t.Fatal(bad)
	}
}

func writeMode(t *testing.T, path, data string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil { // past the umask
		t.Fatal(err)
	}
}
