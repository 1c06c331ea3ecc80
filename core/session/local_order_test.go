package session

import (
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/profile"
	"github.com/agentkit/charter/core/settings"
)

// killAt is a file system on which the process dies as it renames a
// finished file into place under one name.
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

// `settings edit --local` (Replace) lists settings.local.yaml in
// .charter/.gitignore before it writes the personal file, as `settings
// set --local` does: killed between the two, the file is listed.
func TestReplaceListsLocalFileFirst(t *testing.T) {
	fs := &killAt{Fs: afero.NewMemMapFs(), at: core.ProjectLocalFile}
	for _, d := range []string{"/home", "/repo/.git"} {
		if err := fs.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	environ := []string{"HOME=/home", "PATH=", "AGENTKIT_POLICY_FILE=/policy.yaml"}
	sys := core.NewSystem(fs, environ, time.Now, func() (string, error) { return "/repo", nil }, profile.Guard)
	ignore := filepath.Join("/repo", ".charter", ".gitignore")
	body := []byte("worktrees:\n  mode: off\n")
	edit := func() error {
		tg, err := New(sys, Options{}).Target(settings.LayerProjectLocal)
		if err != nil {
			t.Fatal(err)
		}
		return tg.Replace(nil, body, false)
	}
	if err := edit(); err == nil {
		t.Fatal("the personal file was written through a kill")
	}
	if data, err := afero.ReadFile(fs, ignore); err != nil || string(data) != core.ProjectLocalFile+"\n" {
		t.Fatalf(".gitignore after the kill: %q %v, want it to list %s", data, err, core.ProjectLocalFile)
	}
	fs.at = ""
	fs.Remove(ignore)
	if err := edit(); err != nil {
		t.Fatal(err)
	}
	if data, err := afero.ReadFile(fs, ignore); err != nil || string(data) != core.ProjectLocalFile+"\n" {
		t.Errorf(".gitignore after the edit: %q %v, want it to list %s", data, err, core.ProjectLocalFile)
	}
	if data, _ := afero.ReadFile(fs, filepath.Join("/repo", ".charter", core.ProjectLocalFile)); string(data) != string(body) {
		t.Errorf("personal file %q", data)
	}
}
