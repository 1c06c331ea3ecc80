package commands

import (
	"crypto/sha256"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/mcpserver"
)

// fileState is what a write would change about a file.
type fileState struct {
	mode  fs.FileMode
	size  int64
	mtime int64
	sum   [32]byte
}

// snapshot records every file and directory under dir.
func snapshot(t testing.TB, dir string) map[string]fileState {
	t.Helper()
	out := map[string]fileState{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := os.Lstat(path)
		if err != nil {
			return err
		}
		st := fileState{mode: fi.Mode(), size: fi.Size(), mtime: fi.ModTime().UnixNano()}
		if fi.Mode().IsRegular() {
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			st.sum = sha256.Sum256(data)
		}
		out[path] = st
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// No tool and no resource writes: run them all against a read-only config
// root and project, and nothing under the home, root or project changes.
func testMCPWritesNothing(t *testing.T, bin string) {
	w := newWorld(t)
	coretest.WriteFile(t, filepath.Join(w.home, ".claude", "CLAUDE.md"), "# mine\n")
	for _, d := range []string{w.root, w.project} {
		if err := os.Chmod(d, 0o500); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(d, 0o700) })
	}
	before := snapshot(t, w.dir)

	for _, roots := range [][]string{{w.project}, nil} {
		p := startMCP(t, bin, w.project, w.env(), roots, "--config-root", w.root, "mcp")
		for _, uri := range []string{mcpserver.URISettings, mcpserver.URIGovernance, mcpserver.URISchema} {
			p.read(t, uri)
		}
		fields(t, p.call(t, "settings_get", map[string]any{"key": "rules.tier"}))
		fields(t, p.call(t, "settings_explain", map[string]any{"key": "gates.on_failure"}))
		fields(t, p.call(t, "status", nil))
		p.call(t, "gates_run", nil)
		p.call(t, "settings_get", map[string]any{"key": "no.such"})
		if code := p.close(t); code != 0 {
			t.Errorf("exit code %d; stderr: %s", code, p.stderr)
		}
	}

	after := snapshot(t, w.dir)
	for path, st := range after {
		if b, ok := before[path]; !ok {
			t.Errorf("created %s", path)
		} else if b != st {
			t.Errorf("changed %s: %+v became %+v", path, b, st)
		}
	}
	for path := range before {
		if _, ok := after[path]; !ok {
			t.Errorf("removed %s", path)
		}
	}
}
