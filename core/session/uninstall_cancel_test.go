package session

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/agentkit/charter/core/coretest"
)

// An uninstall whose request was cancelled stops at its plan (which reads
// every projected file) and changes nothing, sources included.
func TestUninstallCancelled(t *testing.T) {
	sys, home, repo := machine(t)
	writeFile(t, filepath.Join(repo, ".charter", "settings.yaml"), "rules:\n  tier: full\n")
	writeFile(t, filepath.Join(repo, ".charter", "rules", "style.md"), "Style.\n")
	dir := filepath.Dir(home)
	before := coretest.Tree(t, dir)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := New(sys, Options{}).Uninstall(ctx, UninstallRequest{Project: true, Sources: true})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Uninstall = %v; want context.Canceled", err)
	}
	if after := coretest.Tree(t, dir); after != before {
		t.Errorf("a cancelled uninstall changed the files:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}

// Removing the source folders stops between folders when cancelled: a
// folder is either removed or left whole.
func TestRemoveSourcesCancelled(t *testing.T) {
	sys, home, repo := machine(t)
	src := filepath.Join(repo, ".charter", "rules")
	writeFile(t, filepath.Join(src, "a.md"), "A.\n")
	writeFile(t, filepath.Join(src, "b.md"), "B.\n")
	before := coretest.Tree(t, filepath.Dir(home))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := New(sys, Options{}).removeSources(ctx, []string{src}, repo, false); err == nil {
		t.Fatal("removeSources under a cancelled ctx removed and reported nothing")
	}
	if after := coretest.Tree(t, filepath.Dir(home)); after != before {
		t.Errorf("a cancelled removal changed the sources:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}
