package server

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentkit/charter/core/settings"
)

// JSON Schema's "integer" takes 4.0 and 1e1, and the schema the server
// serves says integer: a PATCH with them sets 4 and 10, as the editor and
// a settings file read agree (issue 25).
func TestPatchWholeDecimals(t *testing.T) {
	e := newEnv(t)
	r := e.start(t, 0)
	rp := r.do("PATCH", "api/v1/settings", `{"set":{"gates.max_blocks":4.0,"commands.suggestions.max_options":1e1}}`, header("If-Match", "*"))
	if rp.status != 200 {
		t.Fatalf("PATCH: %d %s", rp.status, rp.body)
	}
	snap, err := settings.New(e.sys, e.scope).Read()
	if err != nil || snap.Values["gates.max_blocks"] != int64(4) || snap.Values["commands.suggestions.max_options"] != int64(10) {
		t.Fatalf("%v %v", snap.Values, err)
	}
	if rp := r.do("PATCH", "api/v1/settings", `{"set":{"gates.max_blocks":4.5}}`, header("If-Match", "*")); rp.status != 422 {
		t.Errorf("4.5: %d %s", rp.status, rp.body)
	}
}

// A settings file with an alias is refused when the PATCH reads it, with
// file, line and the fix, and left as it was.
func TestPatchRefusesAliases(t *testing.T) {
	e := newEnv(t)
	path := settings.New(e.sys, e.scope).Path()
	text := "base: &b\n  tier: full\nrules: *b\n"
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	r := e.start(t, 0)
	rp := r.do("PATCH", "api/v1/settings", `{"set":{"worktrees.mode":"on"}}`, header("If-Match", "*"))
	if rp.errCode(t) != "malformed_settings" || !strings.Contains(string(rp.body), "settings.yaml:3: aliases and merge keys are not supported in settings files: write the values out") {
		t.Fatalf("%d %s", rp.status, rp.body)
	}
	if data, _ := os.ReadFile(path); string(data) != text {
		t.Errorf("file changed: %q", data)
	}
}
