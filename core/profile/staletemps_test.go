//go:build unix

package profile

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agentkit/charter/core/fsys"
)

// plantTemps lays out, beside dir/name, a killed writer's temporary file
// of name written a moment ago, another name's, and a user's file that
// only looks like one; it returns them in that order.
func plantTemps(t *testing.T, dir, name string) (own, other, users string) {
	t.Helper()
	own = filepath.Join(dir, fsys.TempName(name, 0x0badc0de))
	other = filepath.Join(dir, fsys.TempName("other.json", 0x0badc0de))
	users = filepath.Join(dir, "."+name+".tmp-backup")
	for _, p := range []string{own, other, users} {
		if err := os.WriteFile(p, []byte("half"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return own, other, users
}

func present(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// Under the lock of the file (fsys.WriteOptions.Locked) a temporary file of its
// name is a killed writer's however young: the write removes it. Another
// name's and a user's look-alike stay.
func TestWriteAtomicLockedRemovesFreshTemps(t *testing.T) {
	s, home := tempHome(t)
	dir := filepath.Join(home, "proj", ".charter")
	os.MkdirAll(dir, 0o755)
	path := filepath.Join(dir, "projection.lock")
	own, other, users := plantTemps(t, dir, "projection.lock")
	err := s.WithLock(path, func() error {
		return s.WriteAtomicOpts(path, fsys.WriteOptions{ConfirmShared: true, Locked: true}, []byte("{}\n"))
	})
	if err != nil {
		t.Fatal(err)
	}
	if present(own) || !present(other) || !present(users) {
		t.Fatalf("own temp left %v, other's kept %v, user's kept %v", present(own), present(other), present(users))
	}
	// Without Locked a fresh one may be a live writer's: it stays.
	own, _, _ = plantTemps(t, dir, "projection.lock")
	if err := s.WriteAtomicOpts(path, fsys.WriteOptions{ConfirmShared: true}, []byte("{}\n")); err != nil {
		t.Fatal(err)
	}
	if !present(own) {
		t.Fatal("a fresh temporary file removed without the lock")
	}
}

// A run with nothing to write still removes a killed run's temporary
// record, under the record's lock.
func TestRemoveStaleTemps(t *testing.T) {
	s, home := tempHome(t)
	dir := filepath.Join(home, "proj", ".charter")
	os.MkdirAll(dir, 0o755)
	path := filepath.Join(dir, "projection.lock")
	os.WriteFile(path, []byte("{}\n"), 0o644)
	own, other, users := plantTemps(t, dir, "projection.lock")
	s.RemoveStaleTemps(path, fsys.WriteOptions{Within: filepath.Join(home, "proj")})
	if present(own) || !present(other) || !present(users) {
		t.Fatalf("own temp left %v, other's kept %v, user's kept %v", present(own), present(other), present(users))
	}
}
