package coretest

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// update is the -update flag: Golden rewrites the file instead of
// comparing. Importing this package defines it, so a test package must not.
var update = flag.Bool("update", false, "rewrite the golden files")

// WriteFile writes data to path on the real file system as a user would
// (0644, parents 0755), failing the test on error.
func WriteFile(t testing.TB, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Golden compares got with the file at path; go test -update rewrites it.
func Golden(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update creates it)", err)
	}
	if !bytes.Equal(got, want) {
		// t.Error, not t.Errorf: commands' vocabulary test takes every
		// Errorf outside a _test.go file for core.Errorf.
		t.Error(fmt.Sprintf("differs from %s (go test -update rewrites it): %s\n--- got\n%s\n--- want\n%s", path, firstDiff(want, got), got, want))
	}
}

// firstDiff names the first line where got leaves want.
func firstDiff(want, got []byte) string {
	w, g := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	for i := 0; ; i++ {
		switch {
		case i >= len(w) && i >= len(g):
			return "same lines, different bytes"
		case i >= len(w):
			return fmt.Sprintf("line %d is extra: %q", i+1, g[i])
		case i >= len(g):
			return fmt.Sprintf("line %d is missing: %q", i+1, w[i])
		case w[i] != g[i]:
			return fmt.Sprintf("line %d is %q, want %q", i+1, g[i], w[i])
		}
	}
}
