package project

import (
	"testing"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core/fsys"
)

// Discovery on Windows paths: the home is skipped whatever its letter case.
func TestFindProjectWindows(t *testing.T) {
	fs := afero.NewMemMapFs()
	// MemMapFs keys on the exact text, so create with the separators the walk uses.
	for _, d := range []string{`C:\Users\me\repo\.charter`, `C:\Users\me\.charter`} {
		if err := fs.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		touch(t, fs, d+`\settings.yaml`)
	}
	s := testSystem(fs, `C:\work`, `USERPROFILE=c:\users\ME`)
	s.Paths = fsys.PathStyle{Windows: true}
	s.Getwd = func() (string, error) { return `C:\Users\me\repo\src\x`, nil }
	p, err := Find(s, nil, false)
	if err != nil || p == nil || p.Dir != `C:\Users\me\repo` || p.SettingsPath() != `C:\Users\me\repo\.charter\settings.yaml` {
		t.Fatalf("got %+v, %v", p, err)
	}
	s.Getwd = func() (string, error) { return `C:\Users\me\notes`, nil }
	if p, err := Find(s, nil, false); err != nil || p != nil {
		t.Fatalf("home is not a project, whatever its letter case: %+v %v", p, err)
	}
}
