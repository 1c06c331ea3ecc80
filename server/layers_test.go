package server

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/coretest"
)

// layersEnv is a server for a project with a policy: the policy locks
// rules.tier to full and keeps gates.coverage.min at 80 or more.
func layersEnv(t *testing.T) (*env, *running, *core.Project, string) {
	t.Helper()
	e := newEnv(t, "AGENTKIT_POLICY_FILE=$HOME/policy.yaml")
	policy := filepath.Join(e.home, "policy.yaml")
	coretest.WriteFile(t, policy, "lock:\n  rules.tier: full\nminimum:\n  gates.coverage.min: 80\n")
	dir := filepath.Join(e.dir, "proj")
	coretest.WriteFile(t, filepath.Join(dir, ".charter", "settings.yaml"), "# the team's\nworktrees.mode: off\n")
	r, project := e.startProject(t, dir)
	return e, r, project, policy
}

type layersDoc struct {
	Layer  string
	Layers []struct {
		Name   string
		Path   *string
		Exists bool
		ETag   string
	}
	Origins map[string]string
	Locks   map[string]struct {
		Locked                  bool
		Value, Minimum, Maximum any
		Reason, Policy          string
	}
}

func getLayers(t *testing.T, r *running) (layersDoc, reply) {
	t.Helper()
	rp := r.do("GET", "api/v1/settings", "")
	if rp.status != 200 {
		t.Fatalf("GET: %d %s", rp.status, rp.body)
	}
	var doc layersDoc
	if err := json.Unmarshal(rp.body, &doc); err != nil {
		t.Fatal(err)
	}
	return doc, rp
}

func (d layersDoc) etag(name string) string {
	for _, l := range d.Layers {
		if l.Name == name {
			return l.ETag
		}
	}
	return ""
}

func TestGetSettingsLayers(t *testing.T) {
	e, r, project, policy := layersEnv(t)
	doc, _ := getLayers(t, r)
	want := []struct {
		name, path string
		exists     bool
	}{
		{"default", "", true},
		{"global", "", false}, // a host root has no global file
		{"scope", filepath.Join(e.scope.Path, "settings.yaml"), false},
		{"project", project.SettingsPath(), true},
		{"projectLocal", project.LocalPath(), false},
		{"policy", policy, true},
	}
	if len(doc.Layers) != len(want) {
		t.Fatalf("layers %+v", doc.Layers)
	}
	for i, w := range want {
		l := doc.Layers[i]
		path := ""
		if l.Path != nil {
			path = *l.Path
		}
		if l.Name != w.name || path != w.path || l.Exists != w.exists {
			t.Errorf("layer %d = %s %q %v, want %s %q %v", i, l.Name, path, l.Exists, w.name, w.path, w.exists)
		}
	}
	if doc.Layer != "scope" || doc.Origins["worktrees.mode"] != project.SettingsPath() || doc.Origins["rules.tier"] != policy {
		t.Errorf("layer %q origins %v", doc.Layer, doc.Origins)
	}
	lk := doc.Locks["rules.tier"]
	if !lk.Locked || lk.Value != "full" || lk.Policy != policy || lk.Reason == "" {
		t.Errorf("lock of rules.tier: %+v", lk)
	}
	if b := doc.Locks["gates.coverage.min"]; b.Locked || b.Minimum != float64(80) || b.Maximum != nil {
		t.Errorf("bound of gates.coverage.min: %+v", b)
	}
}

func TestPatchSettingsPerLayer(t *testing.T) {
	e, r, project, _ := layersEnv(t)
	doc, get := getLayers(t, r)
	scopeFile := filepath.Join(e.scope.Path, "settings.yaml")

	// The project layer, with its own file's ETag.
	rp := r.do("PATCH", "api/v1/settings", `{"layer":"project","set":{"gates.coverage.min":85}}`, header("If-Match", doc.etag("project")))
	if rp.status != 200 {
		t.Fatalf("PATCH project: %d %s", rp.status, rp.body)
	}
	data, err := os.ReadFile(project.SettingsPath())
	if err != nil || !bytes.Contains(data, []byte("# the team's")) || !bytes.Contains(data, []byte("min: 85")) {
		t.Errorf("project file %q %v", data, err)
	}
	if _, err := os.Stat(scopeFile); !os.IsNotExist(err) {
		t.Errorf("the scope file was written: %v", err)
	}

	// The old project ETag is stale now; the scope's is not.
	rp = r.do("PATCH", "api/v1/settings", `{"layer":"project","set":{"gates.coverage.min":90}}`, header("If-Match", doc.etag("project")))
	if rp.status != 412 || rp.errCode(t) != "stale_etag" {
		t.Errorf("stale project ETag: %d %s", rp.status, rp.body)
	}
	rp = r.do("PATCH", "api/v1/settings", `{"set":{"agent.autonomy":"on"}}`, header("If-Match", doc.etag("scope")))
	if rp.status != 200 {
		t.Fatalf("PATCH scope: %d %s", rp.status, rp.body)
	}
	if fi, err := os.Stat(scopeFile); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("scope file %v %v", fi, err)
	}
	// The document's ETag covers every layer, so the first one is stale.
	if rp := r.do("PATCH", "api/v1/settings", `{"set":{"agent.autonomy":"off"}}`, header("If-Match", get.header.Get("ETag"))); rp.status != 412 {
		t.Errorf("stale document ETag: %d %s", rp.status, rp.body)
	}

	// projectLocal: a new file, 0644, listed in .charter/.gitignore.
	doc, get = getLayers(t, r)
	rp = r.do("PATCH", "api/v1/settings", `{"layer":"projectLocal","set":{"worktrees.mode":"on"}}`, header("If-Match", get.header.Get("ETag")))
	if rp.status != 200 {
		t.Fatalf("PATCH projectLocal: %d %s", rp.status, rp.body)
	}
	if fi, err := os.Stat(project.LocalPath()); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("local file %v %v", fi, err)
	}
	if data, err := os.ReadFile(filepath.Join(project.Dir, ".charter", ".gitignore")); string(data) != "settings.local.yaml\n" {
		t.Errorf(".gitignore %q %v", data, err)
	}
	after, _ := getLayers(t, r)
	if after.Origins["worktrees.mode"] != project.LocalPath() || after.Layers[4].ETag == doc.Layers[4].ETag {
		t.Errorf("after the local write: %+v", after)
	}

	if rp := r.do("PATCH", "api/v1/settings", `{"layer":"policy","set":{"worktrees.mode":"on"}}`, header("If-Match", "*")); rp.status != 422 || rp.errCode(t) != "invalid_request" {
		t.Errorf("layer policy: %d %s", rp.status, rp.body)
	}
}

func TestPatchSettingsLockedByPolicy(t *testing.T) {
	_, r, project, policy := layersEnv(t)
	before, _ := os.ReadFile(project.SettingsPath())
	policyBytes, _ := os.ReadFile(policy)
	for _, layer := range []string{"scope", "project", "projectLocal"} {
		for _, set := range []string{`{"rules.tier":"minimal"}`, `{"gates.coverage.min":79}`} {
			rp := r.do("PATCH", "api/v1/settings", `{"layer":"`+layer+`","set":`+set+`}`, header("If-Match", "*"))
			if rp.status != 422 || rp.errCode(t) != "locked_by_policy" {
				t.Fatalf("%s %s: %d %s", layer, set, rp.status, rp.body)
			}
			if e := rp.json(t)["error"].(map[string]any); e["policy"] != policy || e["key"] == nil {
				t.Errorf("refusal %v", e)
			}
		}
	}
	if after, _ := os.ReadFile(project.SettingsPath()); !bytes.Equal(after, before) {
		t.Errorf("project file changed: %q", after)
	}
	if _, err := os.Stat(project.LocalPath()); !os.IsNotExist(err) {
		t.Errorf("local file created: %v", err)
	}
	// The lock's own value may be written, and a locked key unset.
	if rp := r.do("PATCH", "api/v1/settings", `{"layer":"project","set":{"rules.tier":"full"}}`, header("If-Match", "*")); rp.status != 200 {
		t.Errorf("lock value: %d %s", rp.status, rp.body)
	}
	if rp := r.do("PATCH", "api/v1/settings", `{"layer":"project","unset":["rules.tier"]}`, header("If-Match", "*")); rp.status != 200 {
		t.Errorf("unset locked: %d %s", rp.status, rp.body)
	}
	if after, _ := os.ReadFile(policy); !bytes.Equal(after, policyBytes) {
		t.Errorf("policy file changed")
	}
}

func TestPatchSettingsNoProject(t *testing.T) {
	e := newEnv(t, "AGENTKIT_POLICY_FILE=$HOME/policy.yaml")
	r := e.start(t, 0)
	doc, _ := getLayers(t, r)
	if doc.Layers[3].Path != nil || doc.Layers[4].Path != nil || doc.Layers[5].Exists {
		t.Errorf("layers without a project or policy: %+v", doc.Layers)
	}
	rp := r.do("PATCH", "api/v1/settings", `{"layer":"project","set":{"rules.tier":"full"}}`, header("If-Match", "*"))
	if rp.status != 422 || rp.errCode(t) != "usage" {
		t.Errorf("project layer without a project: %d %s", rp.status, rp.body)
	}
}

// Ping names the policy file while it exists, as it is at each request:
// one created or removed after the server started is seen by the next GET,
// and a malformed one or a dangling link is named too, so that a host sees
// which file to fix.
func TestPingPolicyFresh(t *testing.T) {
	e := newEnv(t, "AGENTKIT_POLICY_FILE=$HOME/policy.yaml")
	policy := filepath.Join(e.home, "policy.yaml")
	r := e.start(t, 0)
	pingPolicy := func() any {
		t.Helper()
		rp := r.do("GET", "api/v1/ping", "")
		if rp.status != 200 {
			t.Fatalf("ping: %d %s", rp.status, rp.body)
		}
		doc := rp.json(t)
		v, ok := doc["policy"]
		if !ok {
			t.Fatalf("ping without a policy field: %s", rp.body)
		}
		return v
	}
	if p := pingPolicy(); p != nil {
		t.Fatalf("before the file exists: %v", p)
	}
	want := map[string]any{"path": policy}
	coretest.WriteFile(t, policy, "lock:\n  rules.tier: full\n")
	if p := pingPolicy(); !reflect.DeepEqual(p, want) {
		t.Errorf("after the file was created: %v, want %v", p, want)
	}
	coretest.WriteFile(t, policy, "lokc: {}\n")
	if p := pingPolicy(); !reflect.DeepEqual(p, want) {
		t.Errorf("malformed: %v, want %v", p, want)
	}
	if err := os.Remove(policy); err != nil {
		t.Fatal(err)
	}
	if p := pingPolicy(); p != nil {
		t.Errorf("after the file was removed: %v", p)
	}
	// A dangling link fails every read: ping still names it.
	if err := os.Symlink(filepath.Join(e.home, "unmounted", "policy.yaml"), policy); err != nil {
		t.Fatal(err)
	}
	if p := pingPolicy(); !reflect.DeepEqual(p, want) {
		t.Errorf("a dangling link: %v, want %v", p, want)
	}
}
