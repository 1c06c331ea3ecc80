package server

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentkit/charter/core/trust"

	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/gates"
)

type trustReply struct {
	State   string
	Values  []gates.TrustValue
	SHA256  string
	Changed bool
	Revoked *bool
}

func trustOf(t *testing.T, rp reply) trustReply {
	t.Helper()
	var d trustReply
	if rp.status != 200 || json.Unmarshal(rp.body, &d) != nil {
		t.Fatalf("%d %s", rp.status, rp.body)
	}
	return d
}

// GET /api/v1/trust shows the exact values and their hash; POST with that
// hash trusts them, and the project's gate then runs; DELETE revokes.
func TestTrustEndpoint(t *testing.T) {
	e := newEnv(t, gatePath()) // gates see the System's environment alone
	proj := filepath.Join(e.dir, "proj")
	marker := filepath.Join(e.dir, "ran")
	file := filepath.Join(proj, ".charter", "settings.yaml")
	coretest.WriteFile(t, file, "gates.tests.command: touch "+marker+"\ngates.lint.required: false\n")
	r, _ := e.startProject(t, proj)

	d := trustOf(t, r.do("GET", "api/v1/trust", ""))
	want := gates.TrustValue{Key: "gates.tests.command", Value: "touch " + marker, Layer: "project", Path: file}
	if d.State != "untrusted" || len(d.Values) != 1 || d.Values[0] != want || len(d.SHA256) != 64 {
		t.Fatalf("untrusted: %+v", d)
	}
	if doc := runDoc(t, r); doc.OK || doc.Gates[0].Status != "untrusted" {
		t.Fatalf("run before trust: %+v", doc)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the untrusted command ran")
	}

	got := trustOf(t, r.do("POST", "api/v1/trust", `{"sha256":"`+d.SHA256+`"}`))
	if got.State != "trusted" || got.SHA256 != d.SHA256 || len(got.Values) != 1 {
		t.Fatalf("after POST: %+v", got)
	}
	if d := trustOf(t, r.do("GET", "api/v1/trust", "")); d.State != "trusted" {
		t.Errorf("GET after POST: %+v", d)
	}
	if ping := r.do("GET", "api/v1/ping", "").json(t); ping["trust"].(map[string]any)["state"] != "trusted" {
		t.Errorf("ping after POST: %v", ping["trust"])
	}
	if doc := runDoc(t, r); !doc.OK {
		t.Fatalf("run after trust: %+v", doc)
	}
	if err := os.Remove(marker); err != nil {
		t.Fatalf("the trusted command did not run: %v", err)
	}

	got = trustOf(t, r.do("DELETE", "api/v1/trust", ""))
	if got.State != "untrusted" || got.Revoked == nil || !*got.Revoked {
		t.Fatalf("after DELETE: %+v", got)
	}
	if got = trustOf(t, r.do("DELETE", "api/v1/trust", `{"confirmSharedWrite":false}`)); got.Revoked == nil || *got.Revoked {
		t.Errorf("second DELETE: %+v", got)
	}
	if doc := runDoc(t, r); doc.OK {
		t.Fatalf("run after revoke: %+v", doc)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the revoked command ran")
	}
}

// A command changed between GET and POST is not trusted: 409 untrusted,
// the current values in the error's "trust", nothing recorded, and the
// changed command never runs.
func TestTrustChangedSinceShown(t *testing.T) {
	e := newEnv(t)
	proj := filepath.Join(e.dir, "proj")
	marker := filepath.Join(e.dir, "ran")
	file := filepath.Join(proj, ".charter", "settings.yaml")
	coretest.WriteFile(t, file, "gates.tests.command: echo harmless\ngates.lint.required: false\n")
	r, _ := e.startProject(t, proj)
	shown := trustOf(t, r.do("GET", "api/v1/trust", ""))

	coretest.WriteFile(t, file, "gates.tests.command: touch "+marker+"\ngates.lint.required: false\n")
	rp := r.do("POST", "api/v1/trust", `{"sha256":"`+shown.SHA256+`"}`)
	if rp.status != 409 || rp.errCode(t) != "untrusted" {
		t.Fatalf("%d %s", rp.status, rp.body)
	}
	var body struct {
		Error struct{ Trust trustReply }
	}
	if err := json.Unmarshal(rp.body, &body); err != nil {
		t.Fatal(err)
	}
	cur := body.Error.Trust
	if cur.State != "untrusted" || cur.SHA256 == shown.SHA256 || len(cur.Values) != 1 || cur.Values[0].Value != "touch "+marker {
		t.Errorf("the 409's document: %+v", cur)
	}
	tf, err := trust.Path(e.sys)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(tf); !os.IsNotExist(err) {
		t.Error("the refused trust wrote trust.json")
	}
	if d := trustOf(t, r.do("GET", "api/v1/trust", "")); d.State != "untrusted" || d.SHA256 != cur.SHA256 {
		t.Errorf("GET after the refused POST: %+v", d)
	}
	if doc := runDoc(t, r); doc.OK {
		t.Fatalf("run after the refused POST: %+v", doc)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the changed command ran")
	}
}

// A trusted project stays trusted by GET; bad bodies are refused; without
// a served project the endpoint is 404 not_found.
func TestTrustRequests(t *testing.T) {
	e := newEnv(t)
	proj := filepath.Join(e.dir, "proj")
	coretest.WriteFile(t, filepath.Join(proj, ".charter", "settings.yaml"), "gates.lint.command: go vet ./...\n")
	r, _ := e.startProject(t, proj)
	for body, code := range map[string]string{`{}`: "invalid_request", `{"sha256":1}`: "invalid_request", `{"sha256":`: "invalid_json",
		`{"sha256":"abc"}`: "untrusted", `{"revoke":true}`: "invalid_request"} {
		if rp := r.do("POST", "api/v1/trust", body); rp.errCode(t) != code {
			t.Errorf("%s: %d %s, want %s", body, rp.status, rp.body, code)
		}
	}
	d := trustOf(t, r.do("GET", "api/v1/trust", ""))
	trustOf(t, r.do("POST", "api/v1/trust", `{"sha256":"`+d.SHA256+`"}`))
	if d := trustOf(t, r.do("GET", "api/v1/trust", "")); d.State != "trusted" || d.Values[0].Key != "gates.lint.command" {
		t.Errorf("trusted: %+v", d)
	}
	if rp := r.do("PUT", "api/v1/trust", ""); rp.status != 405 || rp.header.Get("Allow") != "GET, HEAD, POST, DELETE" {
		t.Errorf("PUT: %d %v", rp.status, rp.header)
	}
	r.stop()

	r = e.start(t, 0)
	for m, body := range map[string]string{"GET": "", "POST": `{"sha256":""}`, "DELETE": ""} {
		if rp := r.do(m, "api/v1/trust", body); rp.status != 404 || rp.errCode(t) != "not_found" {
			t.Errorf("%s without a project: %d %s", m, rp.status, rp.body)
		}
	}
}
