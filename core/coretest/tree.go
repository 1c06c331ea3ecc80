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
	out, err := Listing(dir)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Listing is Tree for callers without a testing.TB (testscript's tree).
func Listing(dir string) (string, error) {
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
			fmt.Fprintf(&b, "%s link -> %s\n", filepath.ToSlash(rel), filepath.ToSlash(text))
		case fi.IsDir():
			fmt.Fprintf(&b, "%s dir %#o\n", filepath.ToSlash(rel), fi.Mode().Perm())
		default:
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			fmt.Fprintf(&b, "%s file %#o %x\n", filepath.ToSlash(rel), fi.Mode().Perm(), sha256.Sum256(data))
		}
		return nil
	})
	return b.String(), err
}
