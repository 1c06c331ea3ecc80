package projection_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentkit/charter/core/coretest"
)

// BenchmarkPlanNoChange plans the benchmark library over a project that
// already holds it: every target read and compared, nothing to write (the
// no-change run of scripts/bench-content.sh, without loading sources).
func BenchmarkPlanNoChange(b *testing.B) {
	m := coretest.New(b)
	root := filepath.Join(m.Dir, "p")
	os.MkdirAll(filepath.Join(root, ".charter"), 0o755)
	items := bigLibrary()
	if err := plan(b, m.Sys, root, items, false).Run(context.Background(), m.Sys, false); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if p := plan(b, m.Sys, root, items, false); p.Changes() {
			b.Fatal("a plan over its own output has changes")
		}
	}
}
