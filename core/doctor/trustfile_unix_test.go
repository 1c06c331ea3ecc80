//go:build unix

package doctor_test

import (
	"github.com/agentkit/charter/core/trust"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/doctor"
)

// A trust file charter does not believe has its own failing line, with
// the fix; doctor does not hang on a named pipe in its place.
func TestTrustFileLine(t *testing.T) {
	for _, c := range []struct {
		name     string
		make     func(path string) error
		msg, fix string
	}{
		{"writable by others", func(path string) error {
			if err := os.WriteFile(path, []byte(`{"version":1,"projects":[]}`), 0o600); err != nil {
				return err
			}
			return os.Chmod(path, 0o666)
		}, "writable by group or others (mode 0666)", "chmod 600 "},
		{"named pipe", func(path string) error { return syscall.Mkfifo(path, 0o600) }, "a named pipe", "rm "},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := coretest.New(t)
			path, err := trust.Path(m.Sys)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := c.make(path); err != nil {
				t.Fatal(err)
			}
			done := make(chan doctor.Report, 1)
			go func() { done <- runAll(env{Sys: m.Sys}) }()
			var rep doctor.Report
			select {
			case rep = <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("doctor blocked on the trust file")
			}
			l, ok := byName(rep)["trust-file"]
			if !ok || l.Status != doctor.Fail || !strings.Contains(l.Message, path) || !strings.Contains(l.Message, c.msg) ||
				!strings.Contains(l.Message, "no project is trusted") || !strings.Contains(l.Fix, c.fix+path) {
				t.Errorf("trust-file line %+v, want a failure naming %s, %q and the fix %q", l, path, c.msg, c.fix+path)
			}
		})
	}
}
