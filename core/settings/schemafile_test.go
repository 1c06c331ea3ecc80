package settings

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/coretest"
)

func schemaScope(t *testing.T) (*core.System, core.Scope) {
	t.Helper()
	home := t.TempDir()
	sys := coretest.New(t, coretest.Home(home)).Sys
	sc, err := sys.ResolveScope(nil)
	if err != nil {
		t.Fatal(err)
	}
	return sys, sc
}

// A settings file the write created starts with the comment that points
// editors at the schema file, which sits in the config root and holds the
// schema; the comment survives later writes, and a file charter did not
// create is left as it is.
func TestAnnotate(t *testing.T) {
	sys, sc := schemaScope(t)
	st := New(sys, sc)
	write := func(key, text string) {
		t.Helper()
		v, err := ParseText(key, text)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.Write(Update{Set: map[string]any{key: v}}); err != nil {
			t.Fatal(err)
		}
	}
	write("rules.tier", "full")
	if err := Annotate(sys, sc, true, false); err != nil {
		t.Fatal(err)
	}
	schemaPath := filepath.Join(sc.Root.Path, SchemaFileName)
	data, _ := os.ReadFile(st.Path())
	want := "# yaml-language-server: $schema=file://" + filepath.ToSlash(schemaPath) + "\n\nrules:\n  tier: full\n"
	if string(data) != want {
		t.Fatalf("settings file\n%s\nwant\n%s", data, want)
	}
	schema, err := os.ReadFile(schemaPath)
	var doc map[string]any
	if err != nil || json.Unmarshal(schema, &doc) != nil || doc["title"] != "charter settings" {
		t.Fatalf("schema file %v: %.80s", err, schema)
	}
	if fi, _ := os.Stat(schemaPath); fi.Mode().Perm() != core.FileMode {
		t.Errorf("schema file mode %v", fi.Mode().Perm())
	}

	// Later writes keep the comment; a second Annotate adds none.
	write("gates.on_failure", "ask")
	if err := Annotate(sys, sc, true, false); err != nil {
		t.Fatal(err)
	}
	data, _ = os.ReadFile(st.Path())
	if strings.Count(string(data), "yaml-language-server") != 1 || !strings.HasPrefix(string(data), want[:strings.Index(want, "\n")+1]) {
		t.Fatalf("after a second write:\n%s", data)
	}
	if _, err := st.Read(); err != nil {
		t.Fatalf("the annotated file does not read: %v", err)
	}

	// An outdated schema file (an older charter) is brought up to date.
	os.WriteFile(schemaPath, []byte("{}\n"), 0o600)
	if err := Annotate(sys, sc, false, false); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(schemaPath); !bytes.Equal(got, schema) {
		t.Errorf("schema file not refreshed: %.80s", got)
	}
}

func TestAnnotateLeavesUsersFile(t *testing.T) {
	sys, sc := schemaScope(t)
	st := New(sys, sc)
	os.MkdirAll(sc.Path, 0o700)
	os.WriteFile(st.Path(), []byte("# mine\nrules:\n  tier: full\n"), 0o600)
	if err := Annotate(sys, sc, false, false); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(st.Path()); string(got) != "# mine\nrules:\n  tier: full\n" {
		t.Errorf("a file charter did not create was changed:\n%s", got)
	}
}

// Both files Annotate writes are charter's own under the config root: 0600
// after its write, whatever mode an older file had.
func TestAnnotateModes(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix modes on Windows")
	}
	sys, sc := schemaScope(t)
	st := New(sys, sc)
	schemaPath := SchemaPath(sys, sc)
	os.MkdirAll(sc.Path, 0o700)
	for path, data := range map[string]string{st.Path(): "rules:\n  tier: full\n", schemaPath: "{}\n"} {
		os.WriteFile(path, []byte(data), 0o644)
		os.Chmod(path, 0o644)
	}
	if err := Annotate(sys, sc, true, false); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{st.Path(), schemaPath} {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != core.FileMode {
			t.Errorf("%s: mode %v after Annotate", path, fi.Mode().Perm())
		}
	}
	if data, _ := os.ReadFile(st.Path()); !strings.HasPrefix(string(data), schemaModeline) {
		t.Fatalf("not annotated:\n%s", data)
	}
}

func TestFileURL(t *testing.T) {
	for in, want := range map[string]string{
		"/home/me/.agentkit/charter/settings.schema.json": "file:///home/me/.agentkit/charter/settings.schema.json",
		"/home/my name/x.json":                            "file:///home/my%20name/x.json",
		`C:\Users\me\x.json`:                              "file:///C:/Users/me/x.json",
	} {
		if got := FileURL(in); got != want {
			t.Errorf("FileURL(%q) = %q, want %q", in, got, want)
		}
	}
}
