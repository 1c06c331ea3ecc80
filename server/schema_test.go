package server

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentkit/charter/core/settings"
)

// The first PATCH creates the scope file as `charter settings set` does:
// it starts with the schema comment, the schema file it names is written,
// and the reply's ETag is that of the file written, so the next PATCH may
// send it. A new project file gets no comment.
func TestFirstPatchWritesSchemaComment(t *testing.T) {
	e := newEnv(t)
	repo := filepath.Join(e.dir, "repo")
	if err := os.MkdirAll(filepath.Join(repo, ".charter"), 0o755); err != nil {
		t.Fatal(err)
	}
	r, project := e.startProject(t, repo)
	etag := r.do("GET", "api/v1/settings", "").header.Get("ETag")
	rp := r.do("PATCH", "api/v1/settings", `{"set":{"rules.tier":"full"}}`, header("If-Match", etag))
	if rp.status != 200 {
		t.Fatalf("first PATCH: %d %s", rp.status, rp.body)
	}
	scopeFile := settings.New(e.sys, e.scope).Path()
	schemaPath := settings.SchemaPath(e.sys, e.scope)
	data, _ := os.ReadFile(scopeFile)
	want := "# yaml-language-server: $schema=file://" + filepath.ToSlash(schemaPath) + "\n\nrules:\n  tier: full\n"
	if string(data) != want {
		t.Fatalf("scope file\n%s\nwant\n%s", data, want)
	}
	schema, _ := settings.SchemaJSON()
	if got, err := os.ReadFile(schemaPath); err != nil || !bytes.Equal(got, schema) {
		t.Errorf("schema file %v: %.80s", err, got)
	}
	if get := r.do("GET", "api/v1/settings", ""); get.header.Get("ETag") != rp.header.Get("ETag") {
		t.Errorf("PATCH's ETag %s, the file's %s", rp.header.Get("ETag"), get.header.Get("ETag"))
	}
	rp = r.do("PATCH", "api/v1/settings", `{"set":{"gates.on_failure":"ask"}}`, header("If-Match", rp.header.Get("ETag")))
	if rp.status != 200 {
		t.Fatalf("second PATCH with the first one's ETag: %d %s", rp.status, rp.body)
	}
	if data, _ := os.ReadFile(scopeFile); strings.Count(string(data), "yaml-language-server") != 1 {
		t.Errorf("after the second PATCH:\n%s", data)
	}

	rp = r.do("PATCH", "api/v1/settings", `{"layer":"project","set":{"rules.tier":"full"}}`, header("If-Match", "*"))
	if rp.status != 200 {
		t.Fatalf("project PATCH: %d %s", rp.status, rp.body)
	}
	if data, _ := os.ReadFile(project.SettingsPath()); string(data) != "rules:\n  tier: full\n" {
		t.Errorf("project file:\n%s", data)
	}
}
