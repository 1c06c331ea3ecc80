package profile_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/dismiss"
	"github.com/agentkit/charter/core/fsys"
	"github.com/agentkit/charter/core/trust"
)

// A read-only System reads as the System it came from and refuses every
// write, on the real file system (where writes go through fsys's walk,
// not the afero.Fs) and on a memory one, before anything changes.
func TestReadOnlySystemRefusesWrites(t *testing.T) {
	for name, fs := range map[string]afero.Fs{"os": afero.NewOsFs(), "mem": afero.NewMemMapFs()} {
		t.Run(name, func(t *testing.T) {
			m := coretest.New(t, coretest.Fs(fs))
			existing := filepath.Join(m.Dir, "kept.yaml")
			if err := afero.WriteFile(fs, existing, []byte("a: 1\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			ro := m.Sys.ReadOnly("the MCP server")
			if got, err := ro.ReadFile(existing, fsys.KindSettings); err != nil || string(got) != "a: 1\n" {
				t.Fatalf("read through the read-only system: %q, %v", got, err)
			}
			fresh := filepath.Join(m.Dir, "new", "file.yaml")
			_, stageErr := ro.StageFile(fresh, fsys.WriteOptions{}, []byte("x"))
			writes := map[string]error{
				"UpdateFile":  ro.UpdateFile(existing, true, func([]byte) ([]byte, error) { return []byte("a: 2\n"), nil }),
				"WriteAtomic": ro.WriteAtomic(fresh, []byte("x")),
				"RemoveFile":  ro.RemoveFile(existing, fsys.WriteOptions{}),
				"Dismiss":     func() error { _, err := dismiss.Dismiss(ro, "agent-switch", true); return err }(),
				"RecordTrust": trust.Record(ro, trust.Entry{Root: m.Dir, SHA256: "x"}, true),
				"Fs.MkdirAll": ro.Fs.MkdirAll(fresh, 0o700),
				"StageFile":   stageErr,
			}
			for op, err := range writes {
				var nw *fsys.NoWriteError
				if !errors.As(err, &nw) || core.ErrorCode(err) != core.CodeReadOnlyFile {
					t.Errorf("%s through a read-only system: %v, want the refusal of a run that only reads", op, err)
				}
			}
			if got, _ := afero.ReadFile(fs, existing); string(got) != "a: 1\n" {
				t.Errorf("the file changed: %q", got)
			}
			for _, p := range []string{fresh, filepath.Dir(fresh), filepath.Join(m.Home, ".agentkit")} {
				if _, err := fs.Stat(p); !os.IsNotExist(err) {
					t.Errorf("%s exists after refused writes (%v)", p, err)
				}
			}
			// The System it came from still writes.
			if err := m.Sys.WriteAtomic(fresh, []byte("x")); err != nil {
				t.Errorf("the writable system: %v", err)
			}
		})
	}
}
