package importer

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentkit/charter/core/content"
	"github.com/agentkit/charter/core/coretest"
)

// A scan whose ctx is cancelled stops between two files with the
// cancellation and hands back no candidate, so the caller writes nothing:
// cancelled before it starts, and cancelled while it reads (from the hook
// it calls for each file, the way a signal lands mid-scan).
func TestScanCancelled(t *testing.T) {
	m := coretest.New(t)
	repo := filepath.Join(m.Dir, "repo")
	for _, name := range []string{"a", "b", "c"} {
		coretest.WriteFile(t, filepath.Join(repo, ".claude", "rules", name+".md"), "Rule "+name+".\n")
	}
	req := Request{From: "claude", Level: content.LevelProject, Base: repo, Within: repo}

	all, err := Scan(context.Background(), m.Sys, req)
	if err != nil || len(all) != 3 {
		t.Fatalf("uncancelled scan: %d candidates, %v; want 3", len(all), err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if got, err := Scan(ctx, m.Sys, req); !errors.Is(err, context.Canceled) || got != nil {
		t.Errorf("cancelled before: %d candidates, %v; want none and context.Canceled", len(got), err)
	}

	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	seen := 0
	req.Recorded = func(path string) bool {
		if seen++; seen == 2 {
			cancel()
		}
		return false
	}
	if got, err := Scan(ctx, m.Sys, req); !errors.Is(err, context.Canceled) || got != nil {
		t.Errorf("cancelled mid-scan: %d candidates, %v; want none and context.Canceled", len(got), err)
	}
	if seen != 2 {
		t.Errorf("the scan went on to %d files after the cancel at the second; want it to stop there", seen)
	}
	if _, err := os.Stat(filepath.Join(repo, ".charter")); !os.IsNotExist(err) {
		t.Errorf("a scan wrote .charter/: %v", err)
	}
}
