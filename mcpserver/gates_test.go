//go:build unix

package mcpserver

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/gates"
)

// scopeGates writes the scope's settings: gates the scope's own file
// declares are trusted, so they run (in /bin/sh, as a user's do).
func (e *env) scopeGates(t testing.TB, yaml string) {
	t.Helper()
	e.write(t, e.settingsFile(), "gates:\n"+yaml)
}

// The gates run where the settings came from: the project's root (named
// by --project-dir, or found from the client's directory), else the
// client's directory. The session runs them: the gate writes where it ran.
func TestGatesRunInTheProject(t *testing.T) {
	dir := t.TempDir()
	e := newEnv(t)
	where := filepath.Join(t.TempDir(), "where")
	e.scopeGates(t, "  tests:\n    command: pwd > "+where+"\n  lint:\n    required: false\n")
	shop, other := filepath.Join(dir, "shop"), filepath.Join(dir, "other")
	e.write(t, filepath.Join(shop, ".charter", "settings.yaml"), "rules:\n  tier: full\n")
	// other's settings turn the gate off: a run that read them writes nothing.
	e.write(t, filepath.Join(other, ".charter", "settings.yaml"), "gates:\n  tests:\n    required: false\n")
	deep := filepath.Join(shop, "a", "b")
	if err := os.MkdirAll(deep, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name       string
		projectDir *string
		noProject  bool
		client     string
		want       string
	}{
		{"found from the client's directory", nil, false, deep, shop},
		{"--project-dir", &shop, false, other, shop},
		{"--no-project", nil, true, deep, deep},
		{"no project", nil, false, e.wd, e.wd},
	} {
		os.Remove(where)
		l := e.backend()
		l.ProjectDir, l.NoProject = c.projectDir, c.noProject
		rep, err := l.RunGates(context.Background(), c.client, nil, func(int, int, string) {})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got, err := os.ReadFile(where)
		if err != nil || !rep.OK {
			t.Fatalf("%s: the gate did not run (%v): %+v", c.name, err, rep)
		}
		if strings.TrimSpace(string(got)) != c.want {
			t.Errorf("%s: the gates ran in %s, want %s", c.name, got, c.want)
		}
	}
}

// gates_run answers with the run's report as `charter gate run --json`
// prints it: outputTail a list of lines, message even when empty; the
// text and the structured content are the same document.
func TestGatesRunIsTheCLIDocument(t *testing.T) {
	e := newEnv(t)
	e.scopeGates(t, "  tests:\n    command: printf 'ok  shop  0.1s\\nPASS\\n'\n  lint:\n    required: false\n")
	srv := New(e.backend(), Options{Getwd: e.sys.Getwd, Paths: e.sys.Paths, Message: e.sys.ErrorMessage})
	res := call(t, connect(t, srv, newClient(noRoots), ""), "gates_run", nil)
	if res.IsError {
		t.Fatalf("tool error: %s", coretest.ToolText(res))
	}
	var rep gates.Report
	structured(t, res, &rep)
	if !rep.OK || len(rep.Gates) != 1 || rep.Gates[0].Status != gates.StatusPassed || !reflect.DeepEqual(rep.Gates[0].OutputTail, []string{"ok  shop  0.1s", "PASS"}) {
		t.Fatalf("report %+v", rep)
	}
	var want any
	if err := json.Unmarshal(rep.JSON(), &want); err != nil {
		t.Fatal(err)
	}
	if m := want.(map[string]any)["gates"].([]any)[0].(map[string]any); m["message"] != "" {
		t.Errorf("message %v, want it present and empty", m["message"])
	}
	structuredJSON, _ := json.Marshal(res.StructuredContent)
	for name, doc := range map[string][]byte{"text": []byte(coretest.ToolText(res)), "structured content": structuredJSON} {
		var got any
		if err := json.Unmarshal(doc, &got); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n%s\nwant the CLI's document:\n%s", name, doc, rep.JSON())
		}
	}
}
