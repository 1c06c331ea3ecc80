package sources

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/profile"
)

// Hashing or diffing a cached tree stops between two files when ctx is
// cancelled, with ctx's error; a cancelled Ensure reports the
// cancellation, not a fetch that failed.
func TestTreeReadsCancelled(t *testing.T) {
	dir := t.TempDir()
	sys := core.NewSystem(afero.NewOsFs(), []string{"PATH=", "HOME=" + dir}, time.Now, func() (string, error) { return dir, nil }, profile.Guard)
	c, err := OpenCache(sys)
	if err != nil {
		t.Fatal(err)
	}
	tree := filepath.Join(dir, "tree", "rules")
	if err := os.MkdirAll(tree, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range 50 {
		if err := os.WriteFile(filepath.Join(tree, fmt.Sprintf("r%02d.md", i)), []byte("Rule.\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	root := filepath.Dir(tree)
	if _, err := c.HashDir(context.Background(), root); err != nil {
		t.Fatalf("live hash: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.HashDir(ctx, root); !errors.Is(err, context.Canceled) {
		t.Errorf("HashDir = %v, want context.Canceled", err)
	}
	if _, err := c.Diff(ctx, "", root); !errors.Is(err, context.Canceled) {
		t.Errorf("Diff = %v, want context.Canceled", err)
	}
	d, _ := ParseDecl("file:///nowhere/lib")
	if _, err := c.Ensure(ctx, Pin{Decl: d, Commit: "a", Tree: "b"}); !errors.Is(err, context.Canceled) {
		t.Errorf("Ensure = %v, want context.Canceled", err)
	}
}

// A fetch cancelled (a signal, a client gone) reports the cancellation,
// not git's words for being killed, and keeps no tree.
func TestTakeCancelled(t *testing.T) {
	bin, err := exec.LookPath("git")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true but git is missing: %v", err)
		}
		t.Skipf("no git on PATH: %v", err)
	}
	dir := t.TempDir()
	sys := core.NewSystem(afero.NewOsFs(), []string{"PATH=" + filepath.Dir(bin), "HOME=" + dir}, time.Now, func() (string, error) { return dir, nil }, profile.Guard)
	c, err := OpenCache(sys)
	if err != nil {
		t.Fatal(err)
	}
	d, _ := ParseDecl("file://" + filepath.ToSlash(filepath.Join(dir, "nowhere")) + "/lib")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Take(ctx, d); !errors.Is(err, context.Canceled) {
		t.Errorf("Take = %v, want context.Canceled", err)
	}
	if entries, _ := os.ReadDir(filepath.Join(c.entryDir(d.URL), "trees")); len(entries) > 0 {
		t.Errorf("a cancelled take kept a tree: %v", entries)
	}
}
