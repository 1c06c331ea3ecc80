package doctor

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
)

func newSys(t *testing.T, environ ...string) (*core.System, string) {
	t.Helper()
	home := filepath.Join(t.TempDir(), "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	environ = append([]string{"HOME=" + home, "PATH="}, environ...)
	return core.NewSystem(afero.NewOsFs(), environ, time.Now, func() (string, error) { return home, nil }), home
}

func byName(rep Report) map[string]Check {
	m := map[string]Check{}
	for _, c := range rep.Checks {
		m[c.Name] = c
	}
	return m
}

// tree lists every path under dir with its mode, and a file's size and
// time (a directory's time changes with the probe of whether it can be
// written).
func tree(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, _ := d.Info()
		line := p + " " + fi.Mode().String()
		if !d.IsDir() {
			line += fmt.Sprintf(" %d %s", fi.Size(), fi.ModTime())
		}
		out = append(out, line)
		return nil
	})
	return out
}

func TestRunOrderAndNothingWritten(t *testing.T) {
	sys, home := newSys(t)
	if err := os.MkdirAll(filepath.Join(home, ".claude"), 0o700); err != nil {
		t.Fatal(err)
	}
	before := tree(t, home)
	rep := Run(Env{Sys: sys, Version: "1.2.3", Server: func(*core.System, core.Scope) ServerState { return ServerState{} }})
	if after := tree(t, home); !slices.Equal(before, after) {
		t.Errorf("doctor changed the home:\nbefore %v\nafter  %v", before, after)
	}
	var names []string
	for _, c := range rep.Checks {
		names = append(names, c.Name)
		if (c.Status == OK) != (c.Fix == "") {
			t.Errorf("%s: status %s with fix %q: a fix belongs to every line that is not ok, and only to those", c.Name, c.Status, c.Fix)
		}
	}
	want := []string{"companion", "profile", "config-root", "scope", "settings", "shared-links", "server", "agent-file:claude"}
	if !slices.Equal(names, want) {
		t.Errorf("checks %v, want %v", names, want)
	}
	if !rep.OK || rep.Failed() != 0 {
		t.Errorf("ok %v, %d failed", rep.OK, rep.Failed())
	}
	if c := byName(rep)["agent-file:claude"]; c.Status != Warn || !strings.Contains(c.Message, "not written yet") {
		t.Errorf("agent file: %+v", c)
	}
	if c := byName(rep)["config-root"]; !strings.HasSuffix(c.Message, "created on the first write") {
		t.Errorf("config root: %+v", c)
	}
}

func TestServerStates(t *testing.T) {
	sys, _ := newSys(t)
	for _, tc := range []struct {
		st     ServerState
		status string
		msg    string
	}{
		{ServerState{}, OK, "not running"},
		{ServerState{Discovery: "/d.json", Stale: "pid 7 is not running"}, Warn, "/d.json is stale: pid 7 is not running"},
		{ServerState{Running: true, URL: "http://127.0.0.1:41000/", PID: 9}, OK, "running at http://127.0.0.1:41000/ (pid 9)"},
	} {
		rep := Run(Env{Sys: sys, Server: func(*core.System, core.Scope) ServerState { return tc.st }})
		c := byName(rep)["server"]
		if c.Status != tc.status || !strings.Contains(c.Message, tc.msg) {
			t.Errorf("%+v: %+v", tc.st, c)
		}
	}
	if _, ok := byName(Run(Env{Sys: sys}))["server"]; ok {
		t.Error("a server line without a probe")
	}
}

func TestUnwritableRoot(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes anywhere")
	}
	sys, home := newSys(t)
	root := filepath.Join(home, "root")
	if err := os.MkdirAll(root, 0o500); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(root, 0o700) })
	rep := Run(Env{Sys: sys, RootFlag: &root})
	c := byName(rep)["config-root"]
	if c.Status != Fail || !strings.Contains(c.Message, "cannot be written") || rep.OK {
		t.Errorf("config root %+v, report ok %v", c, rep.OK)
	}
}

func TestRootIsAFile(t *testing.T) {
	sys, home := newSys(t)
	file := filepath.Join(home, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(file, "root")
	rep := Run(Env{Sys: sys, RootFlag: &root})
	c := byName(rep)["config-root"]
	if c.Status != Fail || rep.OK {
		t.Errorf("config root %+v, report ok %v", c, rep.OK)
	}
	// The checks that need the scope say they did not run, and do not fail.
	for _, n := range []string{"settings", "agent-files"} {
		if c := byName(rep)[n]; c.Status == Fail {
			t.Errorf("%s fails too: %+v", n, c)
		}
	}
}
