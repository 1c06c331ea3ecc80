package commands

import (
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/agentkit/charter/core/coretest"
)

// A hub toggle of a project rule writes the project's settings, so the
// command line's `apply --project --check` calls the project's files
// outdated (the rule's file to be pruned) until `apply --project` writes them (issue 37 item 8: the
// hub and the files agree).
func TestHubToggleOutdatesProjectFiles(t *testing.T) {
	dir := t.TempDir()
	root, proj := filepath.Join(dir, "root"), filepath.Join(dir, "proj")
	coretest.WriteFile(t, filepath.Join(root, "settings.yaml"), "gates:\n  tests:\n    required: false\n")
	coretest.WriteFile(t, filepath.Join(proj, ".charter", "settings.yaml"), "rules:\n  tier: full\n")
	coretest.WriteFile(t, filepath.Join(proj, ".charter", "rules", "testing.md"), "---\ndescription: Test first\n---\nWrite the test first.\n")
	s := newSkins(t, root, coretest.Env("CHARTER_PROJECT_DIR="+proj))
	if err := os.MkdirAll(filepath.Join(s.base.Sys.Getenv("HOME"), ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	check := func() map[string]int {
		t.Helper()
		doc := s.cli("apply", "--project", "--check", "--project-dir", proj)
		states := map[string]int{}
		for _, list := range []string{"targets", "files"} {
			entries, _ := doc[list].([]any)
			for _, f := range entries {
				states[f.(map[string]any)["state"].(string)]++
			}
		}
		if len(states) == 0 {
			t.Fatalf("apply --project plans nothing: %v", doc)
		}
		return states
	}
	s.cli("apply", "--project", "--project-dir", proj)
	if st := check(); len(st) != 1 || st["current"] == 0 {
		t.Fatalf("after apply --project the files are %v, want all current", st)
	}

	// The hub's toggle: the project rule disabled in the project's file.
	req, _ := http.NewRequest("PATCH", "http://127.0.0.1:"+strconv.Itoa(s.port)+"/api/v1/settings",
		strings.NewReader(`{"layer":"project","set":{"rules.disabled":["testing"]}}`))
	req.Header.Set("Authorization", "Bearer "+s.tok)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("If-Match", "*")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("PATCH: HTTP %d", resp.StatusCode)
	}
	_, content := s.http("GET", "/api/v1/content", "")
	shown := "absent"
	for _, it := range content["items"].([]any) {
		if m := it.(map[string]any); m["name"] == "testing" {
			shown, _ = m["filesState"].(string)
		}
	}
	if shown != "disabled" {
		t.Errorf("the hub shows the toggled project rule's files state %q, want disabled", shown)
	}
	if st := check(); st["pruned"] != 1 {
		t.Errorf("after the hub's toggle apply --project --check calls the files %v, want the rule's file pruned", st)
	}
	s.cli("apply", "--project", "--project-dir", proj)
	if st := check(); len(st) != 1 || st["current"] == 0 {
		t.Errorf("after apply --project the files are %v, want all current", st)
	}
}
