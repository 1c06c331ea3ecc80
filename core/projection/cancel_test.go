package projection_test

import (
	"context"
	"errors"
	"maps"
	"path/filepath"
	"testing"

	"github.com/agentkit/charter/core/content"
	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/projection"
)

// A cancelled ctx stops the content plan (which reads every projected
// file, for apply and for uninstall) with the cancellation, and nothing
// on disk changes.
func TestMakeCancelled(t *testing.T) {
	m := coretest.New(t)
	root := t.TempDir()
	if err := plan(t, m.Sys, root, library(), false).Run(context.Background(), m.Sys, false); err != nil {
		t.Fatal(err)
	}
	before := tree(t, root)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for name, req := range map[string]projection.Request{
		"apply":     {Root: root, RecordPath: filepath.Join(root, ".charter", "projection.lock"), Files: placedAll(root)},
		"uninstall": {Root: root, RecordPath: filepath.Join(root, ".charter", "projection.lock")},
	} {
		p, err := projection.Make(ctx, m.Sys, req)
		if !errors.Is(err, context.Canceled) || p != nil {
			t.Errorf("%s: Make under a cancelled ctx = %v, %v; want no plan and context.Canceled", name, p, err)
		}
	}
	if after := tree(t, root); !maps.Equal(before, after) {
		t.Errorf("a cancelled plan changed the project:\nbefore %v\nafter  %v", before, after)
	}
}

// placedAll is every agent's projection of library() below root.
func placedAll(root string) []projection.Placed {
	var files []projection.Placed
	for _, agent := range []string{"claude", "cursor", "copilot", "codex", "gemini"} {
		out := projection.Project(agentNamed(agent), library(), projection.Options{Level: content.LevelProject, Autoload: true})
		for _, f := range out.Files {
			files = append(files, projection.Placed{File: f, Path: filepath.Join(root, filepath.FromSlash(f.Rel))})
		}
	}
	return files
}
