package session

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/agentkit/charter/core/coretest"
)

// An import whose request was cancelled (a signal, a client gone) returns
// the cancellation and leaves every file as it was: no source, no
// settings, no projection.
func TestImportCancelled(t *testing.T) {
	sys, home, repo := machine(t)
	writeFile(t, filepath.Join(repo, ".claude", "rules", "style.md"), "Style.\n")
	writeFile(t, filepath.Join(repo, ".claude", "settings.json"), claudeSettings)
	dir := filepath.Dir(home)
	before := coretest.Tree(t, dir)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rep, err := New(sys, Options{}).Import(ctx, ImportRequest{From: "claude", Project: true})
	if !errors.Is(err, context.Canceled) || rep != nil {
		t.Fatalf("Import = %v, %v; want no report and context.Canceled", rep, err)
	}
	if after := coretest.Tree(t, dir); after != before {
		t.Errorf("a cancelled import changed the files:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}
