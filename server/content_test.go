package server

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/agentkit/charter/core/agents"
	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/session"
)

// contentEnv serves a project with a scope rule, a project rule scoped to
// Go files, a policy rule and a project skill.
func contentEnv(t *testing.T) (*env, *running, string) {
	t.Helper()
	e := newEnv(t, "AGENTKIT_POLICY_FILE=$HOME/admin/policy.yaml")
	coretest.WriteFile(t, filepath.Join(e.scope.Path, "rules", "tone.md"), "---\ndescription: Be brief\n---\nSay less.\n")
	dir := filepath.Join(e.dir, "proj")
	coretest.WriteFile(t, filepath.Join(dir, ".charter", "rules", "go-style.md"), "---\ndescription: Go style\nglobs: [\"**/*.go\"]\n---\n<b>gofmt</b> everything.\n")
	coretest.WriteFile(t, filepath.Join(dir, ".charter", "skills", "review", "SKILL.md"), "---\nname: review\ndescription: Reviews a change\n---\nLook closely.\n")
	coretest.WriteFile(t, filepath.Join(e.home, "admin", "rules", "mandated.md"), "---\ndescription: The law\n---\nObey.\n")
	r, _ := e.startProject(t, dir)
	return e, r, dir
}

func getContentDoc(t *testing.T, r *running) session.ContentDoc {
	t.Helper()
	rp := r.do("GET", "api/v1/content", "")
	if rp.status != 200 {
		t.Fatalf("GET content: %d %s", rp.status, rp.body)
	}
	var doc session.ContentDoc
	if err := json.Unmarshal(rp.body, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

func TestContentList(t *testing.T) {
	e, r, dir := contentEnv(t)
	doc := getContentDoc(t, r)
	type row struct{ kind, name, layer, level, state, path string }
	var got []row
	by := map[string]session.ContentItem{}
	for _, it := range doc.Items {
		got = append(got, row{string(it.Kind), it.Name, it.Layer, it.Level, it.State, it.Path})
		by[it.Name] = it
	}
	want := []row{
		{"rule", "go-style", "project", "project", "active", filepath.Join(dir, ".charter", "rules", "go-style.md")},
		{"rule", "mandated", "policy", "project", "policy", filepath.Join(e.home, "admin", "rules", "mandated.md")},
		{"rule", "tone", "scope", "user", "active", filepath.Join(e.scope.Path, "rules", "tone.md")},
		{"skill", "review", "project", "project", "active", filepath.Join(dir, ".charter", "skills", "review", "SKILL.md")},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("items\n got %v\nwant %v", got, want)
	}
	// A rule reaches every agent with a rules folder or its block at that
	// level: in a project all of them, at user level not Cursor.
	var project, user []string
	for _, a := range agents.Default() {
		project = append(project, a.Name)
		if a.User.Rules.Dir != "" || a.User.RulesInBlock {
			user = append(user, a.Name)
		}
	}
	if rb := by["go-style"].ReceivedBy; !reflect.DeepEqual(rb, project) {
		t.Errorf("go-style receivedBy %v", rb)
	}
	if rb := by["tone"].ReceivedBy; !reflect.DeepEqual(rb, user) || slices.Contains(rb, "cursor") || !slices.Contains(rb, "copilot") {
		t.Errorf("tone receivedBy %v", rb)
	}
	if by["tone"].Tier != "balanced" || by["go-style"].Description != "Go style" {
		t.Errorf("fields %+v", by["tone"])
	}
	if doc.Policy != filepath.Join(e.home, "admin", "policy.yaml") {
		t.Errorf("policy %q", doc.Policy)
	}
	var layers []string
	for _, l := range doc.Layers {
		layers = append(layers, l.Layer)
	}
	if !reflect.DeepEqual(layers, []string{"scope", "project", "projectLocal"}) {
		t.Errorf("layers %v", layers)
	}

	// Disabling go-style at the project layer: its list, its ETag.
	proj := doc.Layers[1]
	rp := r.do("PATCH", "api/v1/settings", `{"layer":"project","set":{"rules.disabled":["go-style"]}}`, header("If-Match", proj.ETag))
	if rp.status != 200 {
		t.Fatalf("PATCH: %d %s", rp.status, rp.body)
	}
	data, _ := os.ReadFile(filepath.Join(dir, ".charter", "settings.yaml"))
	if !strings.Contains(string(data), "go-style") {
		t.Errorf("project settings %q", data)
	}
	doc = getContentDoc(t, r)
	if doc.Items[0].State != "disabled" || len(doc.Items[0].ReceivedBy) != 0 {
		t.Errorf("after the toggle %+v", doc.Items[0])
	}
	if l := doc.Layers[1]; !l.SetsRules || !reflect.DeepEqual(l.Rules, []string{"go-style"}) || l.ETag == proj.ETag {
		t.Errorf("project layer after the toggle %+v", l)
	}
	// A policy rule cannot be disabled, at any layer.
	rp = r.do("PATCH", "api/v1/settings", `{"layer":"scope","set":{"rules.disabled":["mandated"]}}`, header("If-Match", "*"))
	if rp.status != 422 || rp.json(t)["error"].(map[string]any)["code"] != "locked_by_policy" {
		t.Errorf("disabling a policy rule: %d %s", rp.status, rp.body)
	}
}

func TestContentItem(t *testing.T) {
	_, r, _ := contentEnv(t)
	for _, path := range []string{"api/v1/content/rule/go-style", "api/v1/content/rules/go-style"} {
		rp := r.do("GET", path, "")
		if rp.status != 200 {
			t.Fatalf("GET %s: %d %s", path, rp.status, rp.body)
		}
		var doc session.ContentBody
		if err := json.Unmarshal(rp.body, &doc); err != nil {
			t.Fatal(err)
		}
		if doc.Body != "<b>gofmt</b> everything.\n" || doc.Name != "go-style" || !reflect.DeepEqual(doc.Globs, []string{"**/*.go"}) {
			t.Errorf("%s: %+v", path, doc)
		}
	}
	for _, path := range []string{"api/v1/content/rule/nope", "api/v1/content/widget/go-style", "api/v1/content/widget", "api/v1/content/rule/a/b"} {
		rp := r.do("GET", path, "")
		if rp.status != 404 || rp.json(t)["error"].(map[string]any)["code"] != "not_found" {
			t.Errorf("GET %s: %d %s", path, rp.status, rp.body)
		}
	}
	// Without a name, the kind's list; with ?path= the rules for that file.
	for path, want := range map[string][]string{
		"api/v1/content/rules":                      {"go-style", "mandated", "tone"},
		"api/v1/content/rule?path=cmd%2Fmain.go":    {"go-style", "mandated", "tone"},
		"api/v1/content/rules?path=docs%2Fguide.md": {"mandated", "tone"},
	} {
		var doc struct{ Items []session.ContentItem }
		if err := json.Unmarshal(r.do("GET", path, "").body, &doc); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, it := range doc.Items {
			got = append(got, it.Name)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("GET %s: %v, want %v", path, got, want)
		}
	}
	if rp := r.do("POST", "api/v1/content/rule/go-style", "{}"); rp.status != 405 {
		t.Errorf("POST an item: %d", rp.status)
	}
}
