//go:build unix

package project

import (
	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/profile"
	"github.com/agentkit/charter/core/trust"

	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"
)

const otherUID = 12345

// ownerSystem is a System on the real file system with HOME and the
// working directory under a temporary directory; warnings are collected.
func ownerSystem(t *testing.T, wd string, home string) (*core.System, *[]string) {
	t.Helper()
	var warnings []string
	s := core.NewSystem(afero.NewOsFs(), []string{"HOME=" + home}, time.Now, func() (string, error) { return wd, nil }, profile.Guard)
	s.Warn = func(msg string) { warnings = append(warnings, msg) }
	return s, &warnings
}

// sharedTree is <tmp>/shared/.charter/settings.yaml above the working
// directory <tmp>/shared/work/sub, as a sticky /tmp-like folder holds it.
func sharedTree(t *testing.T) (root, shared, wd, home string) {
	t.Helper()
	root = t.TempDir()
	shared = filepath.Join(root, "shared")
	wd = filepath.Join(shared, "work", "sub")
	home = filepath.Join(root, "home")
	for _, d := range []string{filepath.Join(shared, ".charter"), wd, home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(shared, ".charter", "settings.yaml"), []byte("gates.tests.command: touch /tmp/pwned\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return root, shared, wd, home
}

// Another uid's .charter/ above the working directory is not a project
// (git's safe.directory): it is passed over with one warning naming it and
// the fix, named or discovered; trusting it with its owner accepts it.
func TestForeignProjectIgnored(t *testing.T) {
	_, shared, wd, home := sharedTree(t)
	for _, p := range []string{filepath.Join(shared, ".charter"), filepath.Join(shared, ".charter", "settings.yaml")} {
		if err := os.Lchown(p, otherUID, otherUID); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("CI must be able to change owners: %v", err)
			}
			t.Skipf("cannot change owners here (run as root): %v", err)
		}
	}
	s, warnings := ownerSystem(t, wd, home)
	p, err := Find(s, nil, false)
	if err != nil || p != nil {
		t.Fatalf("discovered: %+v, %v; want no project", p, err)
	}
	if len(*warnings) != 1 || !strings.Contains((*warnings)[0], shared) || !strings.Contains((*warnings)[0], "uid 12345") ||
		!strings.Contains((*warnings)[0], "charter trust --project-dir "+shared) {
		t.Errorf("warnings %q", *warnings)
	}
	named := shared
	if p, err := Find(s, &named, false); err != nil || p != nil {
		t.Errorf("named: %+v, %v; want no project", p, err)
	}
	ignored, err := Ignored(s, nil, false)
	if err != nil || len(ignored) != 1 || ignored[0].Owner != otherUID || ignored[0].Dir != shared {
		t.Errorf("ignored %+v %v", ignored, err)
	}

	// trust finds it, with its owner; recorded, it is used.
	p, err = ToTrust(s, nil)
	if err != nil || p == nil || p.Owner == nil || *p.Owner != otherUID {
		t.Fatalf("to trust: %+v %v", p, err)
	}
	owner := otherUID
	if err := trust.Record(s, trust.Entry{Root: shared, SHA256: strings.Repeat("0", 64), Owner: &owner}, false); err != nil {
		t.Fatal(err)
	}
	*warnings = nil
	if p, err := Find(s, nil, false); err != nil || p == nil || p.Dir != shared {
		t.Errorf("accepted: %+v %v", p, err)
	}
	if len(*warnings) != 0 {
		t.Errorf("warnings after accepting: %q", *warnings)
	}
	// Another owner than the one accepted is foreign again.
	if err := os.Lchown(filepath.Join(shared, ".charter", "settings.yaml"), otherUID+1, otherUID+1); err != nil {
		t.Fatal(err)
	}
	if p, _ := Find(s, nil, false); p != nil {
		t.Errorf("a new owner was accepted: %+v", p)
	}
}

// The same check without root: charter taken to run as another user than
// the one who owns the tree.
func TestForeignProjectByEuid(t *testing.T) {
	root, shared, wd, home := sharedTree(t)
	inner := filepath.Join(shared, "work")
	if err := os.MkdirAll(filepath.Join(inner, ".charter"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(inner, ".charter", "settings.yaml"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	s, warnings := ownerSystem(t, wd, home)
	if p, err := Find(s, nil, false); err != nil || p == nil || p.Dir != inner {
		t.Fatalf("own tree: %+v %v", p, err)
	}
	s.Euid = func() int { return os.Geteuid() + 1 }
	if p, err := Find(s, nil, false); err != nil || p != nil {
		t.Errorf("as another user: %+v %v", p, err)
	}
	// Both are passed over, each with its warning.
	if len(*warnings) != 2 {
		t.Errorf("warnings %q", *warnings)
	}
	_ = root
}
