package coretest

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Tree lists every entry under dir, one line each (path, kind, mode, link
// text or content hash): two equal listings prove nothing under dir was
// written. A missing dir lists as "".
func Tree(t testing.TB, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) && p == dir {
				return filepath.SkipAll
			}
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		fi, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			text, err := os.Readlink(p)
			if err != nil {
				return err
			}
			fmt.Fprintf(&b, "%s link -> %s\n", rel, text)
		case fi.IsDir():
			fmt.Fprintf(&b, "%s dir %#o\n", rel, fi.Mode().Perm())
		default:
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			fmt.Fprintf(&b, "%s file %#o %x\n", rel, fi.Mode().Perm(), sha256.Sum256(data))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}
