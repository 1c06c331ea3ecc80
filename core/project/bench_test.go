package project

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/profile"
)

// testSystem is a system on fs whose working directory is wd.
func testSystem(fs afero.Fs, wd string, environ ...string) *core.System {
	return core.NewSystem(fs, environ, time.Now, func() (string, error) { return wd, nil }, profile.Guard)
}

func BenchmarkFindProject(b *testing.B) {
	b.Run("memfs", func(b *testing.B) {
		fs := afero.NewMemMapFs()
		touch(b, fs, "/home/u/repo/.charter/settings.yaml")
		wd := deepDir("/home/u/repo", 20)
		if err := fs.MkdirAll(wd, 0o755); err != nil {
			b.Fatal(err)
		}
		benchFind(b, testSystem(fs, wd, "HOME=/home/u"))
	})
	b.Run("osfs", func(b *testing.B) {
		base := b.TempDir()
		if err := os.MkdirAll(filepath.Join(base, "repo", ".charter"), 0o755); err != nil {
			b.Fatal(err)
		}
		touch(b, afero.NewOsFs(), filepath.Join(base, "repo", ".charter", "settings.yaml"))
		wd := filepath.FromSlash(deepDir(filepath.ToSlash(filepath.Join(base, "repo")), 20))
		if err := os.MkdirAll(wd, 0o755); err != nil {
			b.Fatal(err)
		}
		benchFind(b, testSystem(afero.NewOsFs(), wd, "HOME="+base))
	})
}

func benchFind(b *testing.B, s *core.System) {
	b.ReportAllocs()
	for b.Loop() {
		p, err := Find(s, nil, false)
		if err != nil || p == nil {
			b.Fatal(p, err)
		}
	}
}
