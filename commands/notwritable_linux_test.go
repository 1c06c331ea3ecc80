package commands

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core/coretest"
)

// Issue 28 item 5, as a user meets it: `charter settings set` and `charter
// dismiss` on a HOME that cannot be written exit 1 with the code
// not_writable, the directory and the fix. As root (permission bits stop
// no one) HOME is a read-only tmpfs mount; as another user, a 0500
// directory.
func TestReadOnlyHome(t *testing.T) {
	home := t.TempDir()
	want := "charter may not write in " + home + ": make it writable for your user (chmod u+rwx " + home + ")"
	if os.Geteuid() == 0 {
		if err := syscall.Mount("tmpfs", home, "tmpfs", syscall.MS_RDONLY, "size=1m"); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("CI=true but a read-only tmpfs cannot be mounted as root: %v", err)
			}
			t.Skipf("mount a read-only tmpfs: %v", err)
		}
		t.Cleanup(func() { syscall.Unmount(home, 0) })
		want = home + " is on a read-only file system: mount it writable"
	} else {
		if err := os.Chmod(home, 0o500); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(home, 0o700) })
	}
	m := coretest.New(t, coretest.Home(home))
	root := filepath.Join(home, ".agentkit", "charter")
	for _, args := range [][]string{
		{"settings", "set", "rules.tier", "full"},
		{"dismiss"},
		{"settings", "set", "rules.tier", "full", "--json"},
	} {
		var stdout, stderr bytes.Buffer
		code := Main(context.Background(), Build{Version: "t"}, args, strings.NewReader(""), &stdout, &stderr, m.Environ(), afero.NewOsFs())
		if code != 1 {
			t.Errorf("%v: exit %d, want 1", args, code)
		}
		msg := stderr.String()
		for _, w := range []string{"charter: cannot write " + root + "/", want, "or choose another config root with --config-root", "`charter doctor` checks the setup"} {
			if !strings.Contains(msg, w) {
				t.Errorf("%v: stderr %q\nwant %q", args, msg, w)
			}
		}
		if strings.Contains(msg, "lock ") || strings.Contains(msg, "temporary") {
			t.Errorf("%v: the write path's internals: %s", args, msg)
		}
		if args[len(args)-1] == "--json" && !strings.Contains(stdout.String(), `"code": "not_writable"`) {
			t.Errorf("%v: %s", args, stdout.String())
		}
	}
}
