package trust

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/profile"
)

// trust.json is user-global, 0600, replaced atomically; revoke removes one
// root; a malformed file names itself and is never overwritten.
func TestTrustFile(t *testing.T) {
	home := t.TempDir()
	s := core.NewSystem(afero.NewOsFs(), []string{"HOME=" + home, core.ConfigHomeVar + "=" + t.TempDir()}, time.Now, os.Getwd, profile.Guard)
	path, err := Path(s)
	if err != nil || path != filepath.Join(home, ".agentkit", "charter", "trust.json") {
		t.Fatalf("%s %v: the trust file is user-global, whatever the config root", path, err)
	}
	sha := strings.Repeat("a", 64)
	for _, root := range []string{"/b", "/a", "/b"} {
		if err := Record(s, Entry{Root: root, SHA256: sha}, false); err != nil {
			t.Fatal(err)
		}
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("%v %v", fi.Mode(), err)
	}
	es, err := Entries(s)
	if err != nil || len(es) != 2 || es[0].Root != "/a" || es[1].Root != "/b" {
		t.Fatalf("%+v %v", es, err)
	}
	if found, err := Revoke(s, "/a", false); !found || err != nil {
		t.Fatalf("%v %v", found, err)
	}
	if found, err := Revoke(s, "/a", false); found || err != nil {
		t.Fatalf("revoked twice: %v %v", found, err)
	}
	if e, err := EntryFor(s, "/b"); err != nil || e == nil || e.SHA256 != sha {
		t.Fatalf("%+v %v", e, err)
	}

	bad := []byte(`{"version":1,"projects":[{"root":"/a","sha256":"x"}]}`)
	if err := os.WriteFile(path, bad, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := EntryFor(s, "/a"); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("read: %v, want an error naming %s", err, path)
	}
	if err := Record(s, Entry{Root: "/c", SHA256: sha}, false); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("write: %v, want an error naming %s", err, path)
	}
	if data, _ := os.ReadFile(path); string(data) != string(bad) {
		t.Errorf("the malformed file was rewritten: %s", data)
	}
}
