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
	"github.com/agentkit/charter/core/fsys"
	"github.com/agentkit/charter/core/profile"
)

func schemaScope(t *testing.T) (*core.System, core.Scope) {
	t.Helper()
	home := t.TempDir()
	sys := coretest.New(t, coretest.Home(home)).Sys
	sc, err := profile.ResolveScope(sys, nil)
	if err != nil {
		t.Fatal(err)
	}
	return sys, sc
}

// A settings file a store WithHeader creates starts with the comment that
// points editors at the schema file, in the same write: the snapshot's ETag
// is the file's. The comment survives later writes, a write that changes
// nothing creates no file, and a file charter did not create gets none.
func TestHeader(t *testing.T) {
	sys, sc := schemaScope(t)
	st := New(sys, sc).WithHeader(Header(sys, sc))
	write := func(u Update) *Snapshot {
		t.Helper()
		snap, err := st.Write(u)
		if err != nil {
			t.Fatal(err)
		}
		return snap
	}
	write(Update{Unset: []string{"rules.tier"}})
	if _, err := os.Stat(st.Path()); !os.IsNotExist(err) {
		t.Fatalf("an unset of nothing created the file: %v", err)
	}
	before, err := st.Read()
	if err != nil {
		t.Fatal(err)
	}
	// If-Match of the missing file holds for the write that creates it.
	snap := write(Update{Set: map[string]any{"rules.tier": "full"}, IfMatch: before.ETag})
	schemaPath := filepath.Join(sc.Root.Path, SchemaFileName)
	data, _ := os.ReadFile(st.Path())
	want := "# yaml-language-server: $schema=file://" + filepath.ToSlash(schemaPath) + "\n\nrules:\n  tier: full\n"
	if string(data) != want {
		t.Fatalf("settings file\n%s\nwant\n%s", data, want)
	}
	if after, err := st.Read(); err != nil || after.ETag != snap.ETag {
		t.Fatalf("the write's ETag %s is not the file's %v %v", snap.ETag, after, err)
	}

	// Later writes keep the comment and add none.
	write(Update{Set: map[string]any{"gates.on_failure": "ask"}})
	write(Update{Unset: []string{"rules.tier"}})
	data, _ = os.ReadFile(st.Path())
	if strings.Count(string(data), "yaml-language-server") != 1 || !strings.HasPrefix(string(data), want[:strings.Index(want, "\n")+1]) {
		t.Fatalf("after later writes:\n%s", data)
	}
}

func TestHeaderLeavesUsersFile(t *testing.T) {
	sys, sc := schemaScope(t)
	st := New(sys, sc).WithHeader(Header(sys, sc))
	os.MkdirAll(sc.Path, 0o700)
	os.WriteFile(st.Path(), []byte("# mine\nrules:\n  tier: full\n"), 0o600)
	if _, err := st.Write(Update{Set: map[string]any{"rules.tier": "minimal"}}); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(st.Path()); string(got) != "# mine\nrules:\n  tier: minimal\n" {
		t.Errorf("a file charter did not create got a header:\n%s", got)
	}
}

// The schema file holds the schema, is brought up to date when an older
// charter wrote it, and is charter's own: 0600 whatever mode it had.
func TestWriteSchemaFile(t *testing.T) {
	sys, sc := schemaScope(t)
	schemaPath := SchemaPath(sys, sc)
	if err := WriteSchemaFile(sys, sc, false); err != nil {
		t.Fatal(err)
	}
	schema, err := os.ReadFile(schemaPath)
	var doc map[string]any
	if err != nil || json.Unmarshal(schema, &doc) != nil || doc["title"] != "charter settings" {
		t.Fatalf("schema file %v: %.80s", err, schema)
	}
	os.WriteFile(schemaPath, []byte("{}\n"), 0o644)
	os.Chmod(schemaPath, 0o644)
	if err := WriteSchemaFile(sys, sc, false); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(schemaPath); !bytes.Equal(got, schema) {
		t.Errorf("schema file not refreshed: %.80s", got)
	}
	if fi, _ := os.Stat(schemaPath); runtime.GOOS != "windows" && fi.Mode().Perm() != fsys.FileMode {
		t.Errorf("schema file mode %v", fi.Mode().Perm())
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
