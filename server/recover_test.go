package server

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentkit/charter/core/apply"
)

// A handler that panics is answered with the one error shape and a 500,
// the panic is logged, and the server goes on answering.
func TestPanicIsAnswered(t *testing.T) {
	e := newEnv(t)
	var log bytes.Buffer
	s, err := Open(Config{Sys: e.sys, Scope: e.scope, Version: "1.2.3-test", Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	s.routes["/api/v1/boom"] = []endpoint{{http.MethodGet, func(w http.ResponseWriter, r *http.Request) error {
		var m map[string]int
		m["x"] = 1 // a nil map: a real runtime panic
		return nil
	}}}
	r := serve(t, s)

	rp := r.do("GET", "api/v1/boom", "")
	if rp.status != http.StatusInternalServerError || rp.errCode(t) != "internal" {
		t.Fatalf("%d %s", rp.status, rp.body)
	}
	if msg := rp.json(t)["error"].(map[string]any)["message"].(string); !strings.Contains(msg, "GET /api/v1/boom") || !strings.Contains(msg, "nil map") {
		t.Errorf("message %q", msg)
	}
	if ct := rp.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("Content-Type %q", ct)
	}
	if rp := r.do("GET", "api/v1/ping", ""); rp.status != http.StatusOK {
		t.Fatalf("after the panic: %d %s", rp.status, rp.body)
	}
	r.stop()
	if !strings.Contains(log.String(), "internal error answering GET /api/v1/boom: assignment to entry in nil map") {
		t.Errorf("log:\n%s", log.String())
	}
	if strings.Contains(log.String(), s.Token()) {
		t.Error("the token reached the log")
	}
}

// The wrapper on its own: a panic before any output is a 500 in the one
// shape; after the status line has gone out nothing more is written, and
// http.ErrAbortHandler keeps its meaning.
func TestRecovering(t *testing.T) {
	s := &Server{cfg: Config{Log: &bytes.Buffer{}}}
	rec := httptest.NewRecorder()
	s.recovering(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("boom") })).
		ServeHTTP(rec, httptest.NewRequest("POST", "/api/v1/settings", nil))
	if rec.Code != 500 || rec.Body.String() != `{"error":{"code":"internal","message":"internal error answering POST /api/v1/settings: boom (the server keeps running; please report this)"}}`+"\n" {
		t.Errorf("%d %s", rec.Code, rec.Body)
	}

	rec = httptest.NewRecorder()
	s.recovering(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusOK)
		w.Write([]byte("partial"))
		panic("late")
	})).ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	if rec.Code != 200 || rec.Body.String() != "partial" {
		t.Errorf("after output: %d %q", rec.Code, rec.Body)
	}

	defer func() {
		if v := recover(); v != http.ErrAbortHandler {
			t.Errorf("recovered %v, want http.ErrAbortHandler to pass through", v)
		}
	}()
	s.recovering(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic(http.ErrAbortHandler) })).
		ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/", nil))
}

// Issue 11: a CLAUDE.md whose block holds 40,000 lines once exhausted the
// server's memory on GET /api/v1/apply. Now the answer is a labelled whole
// replacement of the block, and the server lives on.
func TestApplyHugeBlock(t *testing.T) {
	e := newEnv(t)
	file := filepath.Join(e.home, ".claude", "CLAUDE.md")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("# Mine\n\n" + apply.BeginMarker + "\n")
	for i := range 40000 {
		fmt.Fprintf(&b, "item %05d\n", i)
	}
	b.WriteString(apply.EndMarker + "\n")
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	r := e.start(t, 0)
	rp := r.do("GET", "api/v1/apply?agent=claude", "")
	got := applyTargets(t, rp)
	if rp.status != 200 || len(got) != 1 || got[0].State != apply.StateOutdated {
		t.Fatalf("%d %.300s", rp.status, rp.body)
	}
	if !strings.Contains(got[0].Diff, "@@ "+apply.ReplacedNote+"\n") || !strings.Contains(got[0].Diff, "\n-item 39999\n") {
		t.Errorf("diff does not replace the block as a whole:\n%.500s", got[0].Diff)
	}
	if rp := r.do("GET", "api/v1/ping", ""); rp.status != 200 {
		t.Fatalf("ping after: %d", rp.status)
	}
}
