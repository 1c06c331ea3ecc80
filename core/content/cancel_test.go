package content_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentkit/charter/core/content"
)

// TestLoadCancelled: a cancelled request stops a large library's load
// with ctx's error instead of reading every file; the same library loads
// in full under a live context.
func TestLoadCancelled(t *testing.T) {
	f := newFixture(t)
	dir := filepath.Join(f.scope, "rules")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range 2000 {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("r%04d.md", i)), []byte(rule("a rule", "full")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, load := range []func(context.Context) (*content.Library, error){
		func(ctx context.Context) (*content.Library, error) {
			return content.Load(ctx, f.m.Sys, f.sc, nil, "")
		},
		func(ctx context.Context) (*content.Library, error) {
			return content.LoadNames(ctx, f.m.Sys, f.sc, nil, "")
		},
	} {
		lib, err := load(ctx)
		if !errors.Is(err, context.Canceled) || lib != nil {
			t.Fatalf("cancelled load = %v, %v; want context.Canceled and no library", lib, err)
		}
		lib, err = load(context.Background())
		if err != nil {
			t.Fatalf("live load: %v", err)
		}
		if len(lib.Items) != 2000 {
			t.Fatalf("live load read %d items, want 2000", len(lib.Items))
		}
	}
}
