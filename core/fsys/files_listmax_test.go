package fsys

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/spf13/afero"
)

// A bounded listing reads at most max+1 names from the real file system
// and sorts them only when it read them all.
func TestListDirMax(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"e", "c", "a", "d", "b"} {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := &Files{Fs: afero.NewOsFs()}
	names := func(max int) []string {
		entries, notDir, err := s.listDir("", dir, max)
		if err != nil || notDir {
			t.Fatalf("max %d: %v %v", max, notDir, err)
		}
		var out []string
		for _, e := range entries {
			out = append(out, e.Name())
		}
		return out
	}
	if got := names(3); len(got) != 4 {
		t.Errorf("max 3 of 5: %v, want 4 names (one over tells more)", got)
	}
	for _, max := range []int{0, 5, 100} {
		if got := names(max); !slices.Equal(got, []string{"a", "b", "c", "d", "e"}) {
			t.Errorf("max %d: %v", max, got)
		}
	}
	if got := names(4); len(got) != 5 {
		t.Errorf("max 4 of 5: %v", got)
	}
}
