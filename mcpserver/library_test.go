package mcpserver

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentkit/charter/core/session"
)

// settle dates every file under dirs an hour back, and moves the
// backend's clock an hour on, so no stamp is racy.
func settle(t *testing.T, be *Local, dirs ...string) {
	t.Helper()
	old := time.Now().Add(-time.Hour)
	for _, d := range dirs {
		err := filepath.WalkDir(d, func(p string, _ os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			return os.Chtimes(p, old, old)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	be.cache().Now = func() time.Time { return time.Now().Add(time.Hour) }
}

// edit writes data to path and gives it an mtime that no earlier stamp
// had, so the test does not depend on the clock's tick.
func edit(t *testing.T, path, data string, age time.Duration) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	at := time.Now().Add(-age)
	if err := os.Chtimes(path, at, at); err != nil {
		t.Fatal(err)
	}
}

func sessionWith(be *Local, dir string) *session.Session { return be.session(dir) }

// The library is read once while nothing changes, and read again after
// any edit, addition or removal of a source, even one of the same size.
func TestLibraryKeptUntilChanged(t *testing.T) {
	e := contentWorld(t)
	be := e.backend()
	settle(t, be, filepath.Join(e.wd, ".charter"), e.scope.Path)
	lib := func() any {
		t.Helper()
		l, _, err := sessionWith(be, e.wd).Library(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	first := lib()
	if lib() != first {
		t.Fatal("an unchanged library was read again")
	}
	rules := filepath.Join(e.wd, ".charter", "rules")
	steps := []func(){
		func() {
			edit(t, filepath.Join(rules, "always.md"), "---\ndescription: Everywhere\n---\nBe KIND.\n", 30*time.Minute)
		},
		func() { edit(t, filepath.Join(rules, "new.md"), "---\ndescription: New\n---\nNew.\n", 20*time.Minute) },
		func() {
			if err := os.Remove(filepath.Join(rules, "new.md")); err != nil {
				t.Fatal(err)
			}
		},
		func() {
			edit(t, filepath.Join(e.scope.Path, "commands", "ship.md"), "---\ndescription: Ship\n---\nGo.\n", 10*time.Minute)
		},
	}
	prev := first
	for i, step := range steps {
		step()
		next := lib()
		if next == prev {
			t.Fatalf("step %d: the library was not read again after a change", i)
		}
		if lib() != next {
			t.Fatalf("step %d: the library read after the change was not kept", i)
		}
		prev = next
	}
}

// A file changed within racyWindow of the call is not trusted, and a
// source reached through a link is never kept.
func TestLibraryNotKeptWhenUnsure(t *testing.T) {
	e := contentWorld(t)
	be := e.backend()
	// The clock stands just after the newest write, however long the
	// writes took on a loaded machine: that file is within racyWindow.
	var newest time.Time
	for _, d := range []string{filepath.Join(e.wd, ".charter"), e.scope.Path} {
		filepath.WalkDir(d, func(p string, _ os.DirEntry, err error) error {
			if fi, err := os.Lstat(p); err == nil && fi.ModTime().After(newest) {
				newest = fi.ModTime()
			}
			return nil
		})
	}
	be.cache().Now = func() time.Time { return newest.Add(time.Millisecond) }
	l1, _, err := sessionWith(be, e.wd).Library(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if l2, _, _ := sessionWith(be, e.wd).Library(context.Background()); l2 == l1 {
		t.Fatal("a library whose files had just been written was kept")
	}
	link := filepath.Join(e.wd, ".charter", "rules", "linked.md")
	if err := os.Symlink(filepath.Join(e.wd, ".charter", "rules", "go.md"), link); err != nil {
		t.Fatal(err)
	}
	settle(t, be, filepath.Join(e.wd, ".charter", "rules", "go.md"))
	l3, _, err := sessionWith(be, e.wd).Library(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if l4, _, _ := sessionWith(be, e.wd).Library(context.Background()); l4 == l3 {
		t.Fatal("a library with a linked source was kept")
	}
}

// Through MCP: a rule edited between two calls shows its new text.
func TestRulesListSeesEdit(t *testing.T) {
	e := contentWorld(t)
	be := e.backend()
	settle(t, be, filepath.Join(e.wd, ".charter"), e.scope.Path)
	srv := New(be, Options{Version: "1.2.3-test", Getwd: e.sys.Getwd, Paths: e.sys.Paths, Message: e.sys.ErrorMessage})
	cs := connect(t, srv, newClient(noRoots), "")
	desc := func() string {
		var got ItemList
		structured(t, call(t, cs, "rules_list", map[string]any{}), &got)
		for _, it := range got.Items {
			if it.Name == "always" {
				return it.Description
			}
		}
		t.Fatal("no rule always")
		return ""
	}
	body := func() string {
		var got session.ContentBody
		structured(t, call(t, cs, "rule_get", map[string]any{"name": "always"}), &got)
		return got.Body
	}
	if d, b := desc(), body(); d != "Everywhere" || b != "Be kind.\n" {
		t.Fatalf("before: %q %q", d, b)
	}
	desc() // served from what was kept
	// The same size as before: only the stamp's time tells.
	edit(t, filepath.Join(e.wd, ".charter", "rules", "always.md"), "---\ndescription: Elsewhere\n---\nBe KIND.\n", 30*time.Minute)
	if d, b := desc(), body(); d != "Elsewhere" || b != "Be KIND.\n" {
		t.Fatalf("after the edit: %q %q", d, b)
	}
}

// outputSchemas are the tools' output schemas by name, per session.
var outputSchemas sync.Map // *mcp.ClientSession → map[string]*jsonschema.Resolved

// checkOutput holds a successful result to its tool's output schema: the
// check the server leaves out of each call.
func checkOutput(t testing.TB, cs *mcp.ClientSession, name string, res *mcp.CallToolResult) {
	t.Helper()
	if res.IsError || res.StructuredContent == nil {
		return
	}
	m, ok := outputSchemas.Load(cs)
	if !ok {
		byName := map[string]*jsonschema.Resolved{}
		tools, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, tool := range tools.Tools {
			data, err := json.Marshal(tool.OutputSchema)
			if err != nil {
				t.Fatal(err)
			}
			var s jsonschema.Schema
			if err := json.Unmarshal(data, &s); err != nil {
				t.Fatal(err)
			}
			r, err := s.Resolve(nil)
			if err != nil {
				t.Fatalf("%s: output schema: %v", tool.Name, err)
			}
			byName[tool.Name] = r
		}
		m = byName
		outputSchemas.Store(cs, m)
	}
	r := m.(map[string]*jsonschema.Resolved)[name]
	if r == nil {
		t.Fatalf("%s has no output schema", name)
	}
	data, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	if err := r.Validate(&v); err != nil {
		t.Fatalf("%s: output does not match its schema: %v\n%s", name, err, strings.TrimSpace(string(data)))
	}
}
