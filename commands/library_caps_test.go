package commands

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// cmdSparse makes n files of size bytes each, sparse (Truncate), so that a
// script can hold gigabytes as listed in a few KB of disk:
//
//	sparse SIZE N PATTERN      PATTERN holds one %03d: skills/big/f%03d.bin
func cmdSparse(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 || strings.Count(args[2], "%03d") != 1 {
		ts.Fatalf("usage: sparse SIZE N PATTERN (PATTERN with one %%03d)")
	}
	size, err := strconv.ParseInt(args[0], 10, 64)
	ts.Check(err)
	n, err := strconv.Atoi(args[1])
	ts.Check(err)
	ts.Check(makeSparse(ts.MkAbs(args[2]), n, size))
}

// makeSparse is cmdSparse for Go tests: n files named by pattern.
func makeSparse(pattern string, n int, size int64) error {
	if err := os.MkdirAll(filepath.Dir(pattern), 0o755); err != nil {
		return err
	}
	for i := range n {
		f, err := os.Create(fmt.Sprintf(pattern, i))
		if err != nil {
			return err
		}
		err = f.Truncate(size)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// makeSkills writes count skill folders s00, s01, … under dir, each with
// its SKILL.md and files sparse files of size bytes.
func makeSkills(dir string, count, files int, size int64) error {
	for i := range count {
		name := fmt.Sprintf("s%02d", i)
		folder := filepath.Join(dir, name)
		if err := makeSparse(filepath.Join(folder, "f%03d.bin"), files, size); err != nil {
			return err
		}
		md := "---\nname: " + name + "\ndescription: a skill of large files\n---\nUse the files.\n"
		if err := os.WriteFile(filepath.Join(folder, "SKILL.md"), []byte(md), 0o644); err != nil {
			return err
		}
	}
	return nil
}
