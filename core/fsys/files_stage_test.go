package fsys

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/spf13/afero"
)

// A cancelled context stops StageAll before it stages anything more, and
// what it staged goes: a big library's staging is most of an apply.
func TestStageAllStopsWhenCancelled(t *testing.T) {
	dir := t.TempDir()
	s := &Files{Fs: afero.NewOsFs()}
	g, err := s.Stager(WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	var files []File
	for _, name := range []string{"a/x", "a/y", "b/x"} {
		files = append(files, File{Path: filepath.Join(dir, name), Mode: 0o644, Data: []byte(name)})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if staged, err := g.StageAll(ctx, files); !errors.Is(err, context.Canceled) || staged != nil {
		t.Fatalf("StageAll with a cancelled context: %v, %d staged", err, len(staged))
	}
	g.Close()
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("a cancelled StageAll left %v", entries)
	}
	// Not cancelled, the same files stage.
	g2, err := s.Stager(WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer g2.Close()
	staged, err := g2.StageAll(context.Background(), files)
	if err != nil || len(staged) != len(files) {
		t.Fatalf("StageAll: %v, %d staged", err, len(staged))
	}
	for _, st := range staged {
		st.Abort()
		st.Target().Close()
	}
}
