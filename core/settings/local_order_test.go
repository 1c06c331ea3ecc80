package settings

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/fsys"
	"github.com/agentkit/charter/core/project"
)

// killAt is a file system on which the process dies as it renames a
// finished file into place under one name: the file never appears, and
// nothing charter would have done after it happens.
type killAt struct {
	afero.Fs
	at string // the base name; "" kills nothing
}

func (k *killAt) Rename(oldname, newname string) error {
	if k.at != "" && filepath.Base(newname) == k.at {
		k.Fs.Remove(oldname)
		return errors.New("killed")
	}
	return k.Fs.Rename(oldname, newname)
}

// .charter/.gitignore lists settings.local.yaml before the personal file
// is first written: a kill between the two writes leaves it listed, never
// a personal file git would commit. An existing personal file is not
// listed again (its line may have been removed on purpose).
func TestLocalFileListedBeforeWritten(t *testing.T) {
	fs := &killAt{Fs: afero.NewMemMapFs(), at: core.ProjectLocalFile}
	sys := coretest.New(t, coretest.Fs(fs), coretest.Home("/h")).Sys
	proj := "/w/proj"
	ignore := filepath.Join(proj, ".charter", ".gitignore")
	writeFs(t, fs, filepath.Join(proj, ".charter", "settings.yaml"), "rules:\n  tier: full\n")
	p, err := project.At(sys, proj, core.SourceFlag)
	if err != nil {
		t.Fatal(err)
	}
	local, err := Open(sys, core.Scope{Kind: core.ScopeGlobal, Path: "/h/c"}, p, nil).Target(LayerProjectLocal)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := local.Write(Update{Set: map[string]any{"worktrees.mode": "off"}}); err == nil {
		t.Fatal("the personal file was written through a kill")
	}
	if _, err := fs.Stat(p.LocalPath()); !fsys.IsAbsent(err) {
		t.Fatalf("the personal file exists after the kill: %v", err)
	}
	if data, err := afero.ReadFile(fs, ignore); err != nil || string(data) != core.ProjectLocalFile+"\n" {
		t.Fatalf(".gitignore after the kill: %q %v, want it to list %s", data, err, core.ProjectLocalFile)
	}

	// A .gitignore that cannot be written stops the write: nothing personal
	// is written unlisted, and the error says how to fix it.
	fs.Fs.Remove(ignore)
	fs.Fs.Mkdir(ignore, 0o755)
	fs.at = ""
	local, _ = Open(sys, core.Scope{Kind: core.ScopeGlobal, Path: "/h/c"}, p, nil).Target(LayerProjectLocal)
	_, err = local.Write(Update{Set: map[string]any{"worktrees.mode": "off"}})
	if err == nil || !strings.Contains(err.Error(), "was not written") || !strings.Contains(err.Error(), "add the line "+core.ProjectLocalFile) {
		t.Errorf("write with an unwritable .gitignore: %v", err)
	}
	if _, err := fs.Stat(p.LocalPath()); !fsys.IsAbsent(err) {
		t.Errorf("the personal file was written unlisted: %v", err)
	}

	// An existing personal file whose line was removed stays unlisted.
	fs.Fs.Remove(ignore)
	writeFs(t, fs, p.LocalPath(), "worktrees:\n  mode: on\n")
	if _, err := local.Write(Update{Set: map[string]any{"worktrees.mode": "off"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := fs.Stat(ignore); !fsys.IsAbsent(err) {
		t.Errorf(".gitignore written for a personal file that existed: %v", err)
	}
}

func writeFs(t *testing.T, fs afero.Fs, path, data string) {
	t.Helper()
	if err := fs.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := afero.WriteFile(fs, path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
