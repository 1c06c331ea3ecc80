package profile_test

import (
	"io/fs"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/coretest"
)

// Issue 28 item 5: a write the system refuses (a read-only HOME, a
// directory without write permission) is coded not_writable and names the
// directory and the fix, not `lock …: the file system is read-only`. The
// failure is injected (tests run as root, whom permission bits never stop);
// commands/notwritable_test.go meets it on a real read-only HOME.
func TestNotWritableSaysWhichDirectory(t *testing.T) {
	m := coretest.New(t)
	root := filepath.Join(m.Home, ".agentkit", "charter")
	target := filepath.Join(root, "settings.yaml")
	for _, c := range []struct {
		name string
		err  error
		want []string
	}{
		{"read-only lock", &fs.PathError{Op: "open", Path: filepath.Join(root, "locks", "03.lock"), Err: syscall.EROFS},
			[]string{"cannot write " + target + ": " + filepath.Join(root, "locks") + " is on a read-only file system: mount it writable", "--config-root or AGENTKIT_CONFIG_HOME (the root now is " + root + ")", "`charter doctor`"}},
		{"temporary file", &fs.PathError{Op: "open", Path: filepath.Join(m.Home, ".charter-tmp-settings.yaml-1"), Err: syscall.EACCES},
			[]string{"charter may not write in " + m.Home + ": make it writable for your user (chmod u+rwx " + m.Home + ") and check its owner"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := m.Sys.UpdateFile(target, false, func([]byte) ([]byte, error) { return nil, c.err })
			if core.ErrorCode(err) != core.CodeNotWritable {
				t.Fatalf("code %s: %v", core.ErrorCode(err), err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%v\nwant %q", err, w)
				}
			}
		})
	}
	// Outside the config root there is no root to choose instead.
	err := m.Sys.UpdateFile(filepath.Join(m.Home, "CLAUDE.md"), false, func([]byte) ([]byte, error) {
		return nil, &fs.PathError{Op: "open", Path: m.Home, Err: syscall.EACCES}
	})
	if core.ErrorCode(err) != core.CodeNotWritable || strings.Contains(err.Error(), "--config-root") {
		t.Errorf("%s: %v", core.ErrorCode(err), err)
	}
	// Any other failure keeps its own code.
	err = m.Sys.UpdateFile(target, false, func([]byte) ([]byte, error) { return nil, syscall.ENOSPC })
	if core.ErrorCode(err) != core.CodeInternal {
		t.Errorf("ENOSPC: %s", core.ErrorCode(err))
	}
}
