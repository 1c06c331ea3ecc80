package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentkit/charter/core/dismiss"
)

func TestDismiss(t *testing.T) {
	e := newEnv(t)
	r := e.start(t, 0)
	path := filepath.Join(e.home, ".agentkit", "charter", "dismissals.json")
	bad := []struct {
		body   string
		status int
		code   string
	}{
		{`{"id":"agent-switch"`, 400, "invalid_json"},
		{``, 400, "invalid_json"},
		{`{"id":"agent-switch"} {}`, 400, "invalid_json"},
		{`{"id":"agent-switch","extra":1}`, 422, "invalid_request"},
		{`{"id":"copilot"}`, 422, "unknown_id"},
		{`{}`, 422, "invalid_request"},
		{`null`, 422, "invalid_request"},
		{`["agent-switch"]`, 422, "invalid_request"},
		{`{"id":7}`, 422, "invalid_request"},
		{`{"id":"agent-switch","confirmSharedWrite":"yes"}`, 422, "invalid_request"},
	}
	for _, b := range bad {
		rp := r.do("POST", "api/v1/wizard/dismiss-recommendation", b.body)
		if rp.status != b.status || rp.errCode(t) != b.code {
			t.Errorf("%s: %d %s, want %d %s", b.body, rp.status, rp.body, b.status, b.code)
		}
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a rejected request wrote %s", path)
	}
	for range 2 { // idempotent
		rp := r.do("POST", "api/v1/wizard/dismiss-recommendation", `{"id":"agent-switch","confirmSharedWrite":false}`)
		if rp.status != 200 || string(bytes.TrimSpace(rp.body)) != `{"ok":true,"dismissed":["agent-switch"]}` {
			t.Fatalf("dismiss: %d %s", rp.status, rp.body)
		}
	}
	if ok, err := dismiss.Dismissed(e.sys, "agent-switch"); !ok || err != nil {
		t.Fatalf("not recorded: %v %v", ok, err)
	}
}

// A write that fails is a 500, never a false success.
func TestDismissWriteFails(t *testing.T) {
	e := newEnv(t)
	r := e.start(t, 0)
	// A directory where the dismissals file should be: the rename must fail.
	if err := os.MkdirAll(filepath.Join(e.home, ".agentkit/charter/dismissals.json/x"), 0o700); err != nil {
		t.Fatal(err)
	}
	rp := r.do("POST", "api/v1/wizard/dismiss-recommendation", `{"id":"agent-switch"}`)
	if rp.status != 500 || bytes.Contains(rp.body, []byte(`"ok"`)) {
		t.Fatalf("got %d %s", rp.status, rp.body)
	}
	rp.errCode(t)
}

// The user-global dismissals file behind a link the companion shares: 409
// until confirmed, then written through the link, which stays.
func TestDismissSharedLink(t *testing.T) {
	// The companion home is $HOME itself, so $HOME/.agentkit lies inside it.
	e := newEnv(t, "AGENT_SWITCH_HOME=$HOME")
	shared := filepath.Join(e.dir, "shared")
	if err := os.MkdirAll(shared, 0o700); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(e.home, ".agentkit")
	if err := os.Symlink(shared, link); err != nil {
		t.Skip("no symlinks:", err)
	}
	r := e.start(t, 0)
	rp := r.do("POST", "api/v1/wizard/dismiss-recommendation", `{"id":"agent-switch"}`)
	if rp.status != 409 {
		t.Fatalf("got %d %s", rp.status, rp.body)
	}
	checkSharedBody(t, rp, link)
	if _, err := os.Stat(filepath.Join(shared, "charter", "dismissals.json")); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("written without confirmation")
	}
	rp = r.do("POST", "api/v1/wizard/dismiss-recommendation", `{"id":"agent-switch","confirmSharedWrite":true}`)
	if rp.status != 200 {
		t.Fatalf("confirmed: %d %s", rp.status, rp.body)
	}
	if _, err := os.Stat(filepath.Join(shared, "charter", "dismissals.json")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("link not intact: %v %v", fi, err)
	}
}

// checkSharedBody pins the 409 body the CLI's --json shares.
func checkSharedBody(t *testing.T, rp reply, link string) {
	t.Helper()
	e := rp.json(t)["error"].(map[string]any)
	if e["code"] != "shared_write" || e["sharedPath"] != link || e["hint"] != "agent-switch share off" {
		t.Errorf("409 body: %s", rp.body)
	}
	choices, _ := json.Marshal(e["choices"])
	if string(choices) != `["Write (affects all profiles)","Cancel"]` {
		t.Errorf("choices: %s", choices)
	}
}
