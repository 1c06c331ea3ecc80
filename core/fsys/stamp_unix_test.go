//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package fsys

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Lstamp is the one stamp the stat cache, the content cache and the plan
// memo take: what it calls missing, a link, a folder and racy.
func TestLstamp(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(file, filepath.Join(dir, "l")); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		path               string
		missing, dir, link bool
		regular            bool
	}{
		{path: file, regular: true},
		{path: dir, dir: true},
		{path: filepath.Join(dir, "l"), link: true},
		{path: filepath.Join(dir, "none"), missing: true},
		{path: filepath.Join(file, "under-a-file"), missing: true},
	}
	for _, c := range cases {
		st, missing, ok := Lstamp(c.path)
		if !ok || missing != c.missing || st.IsDir() != c.dir || st.IsLink() != c.link || st.IsFile() != c.regular || st.Absent() != c.missing {
			t.Errorf("Lstamp(%s) = %+v missing %v ok %v", c.path, st, missing, ok)
		}
	}
	st, _, _ := Lstamp(file)
	if st.Size != 1 || st.Ino == 0 {
		t.Errorf("stamp of a 1-byte file: %+v", st)
	}
	if st.Type() != (Stamp{Mode: st.Mode & modeType}) || !st.Type().IsFile() {
		t.Errorf("Type of %+v = %+v", st, st.Type())
	}
	absent, _, _ := Lstamp(filepath.Join(dir, "none"))
	if absent.Type() != absent || absent == st.Type() {
		t.Errorf("Type of the absent stamp = %+v", absent.Type())
	}
}

func TestStampRacy(t *testing.T) {
	changed := time.Date(2026, 11, 28, 3, 0, 0, 0, time.UTC)
	st := Stamp{Mtime: changed.UnixNano(), Ctime: changed.Add(-time.Hour).UnixNano()}
	if !st.Racy(changed) || !st.Racy(changed.Add(RacyWindow-time.Nanosecond)) || !st.Racy(changed.Add(RacyWindow)) {
		t.Error("a stamp taken within RacyWindow of its change must be racy")
	}
	if st.Racy(changed.Add(RacyWindow + time.Nanosecond)) {
		t.Error("a stamp taken after RacyWindow must vouch")
	}
	st.Ctime = changed.Add(time.Second).UnixNano() // a chmod later: ctime alone
	if !st.Racy(changed.Add(time.Second + time.Millisecond)) {
		t.Error("a recent ctime alone must make the stamp racy")
	}
}
