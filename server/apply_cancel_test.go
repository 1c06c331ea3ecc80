package server

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentkit/charter/core/fsys"
)

// lockedLog is a log the server writes from its handlers' goroutines.
type lockedLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *lockedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *lockedLog) String() string { l.mu.Lock(); defer l.mu.Unlock(); return l.buf.String() }

// A client that hangs up during POST /api/v1/apply of a big library stops
// the apply: the server logs it stopped, its drain cuts nothing off, no
// temporary file is left, nothing was published (a fresh home's skills
// folder appears whole or not at all), and the next apply finishes.
func TestApplyStopsWhenClientDisconnects(t *testing.T) {
	e := newEnv(t)
	claude := filepath.Join(e.home, ".claude")
	if err := os.MkdirAll(claude, 0o700); err != nil {
		t.Fatal(err)
	}
	for i := range 2000 {
		dir := filepath.Join(e.scope.Path, "skills", fmt.Sprintf("s%04d", i))
		md := fmt.Sprintf("---\nname: s%04d\ndescription: skill %d\n---\nUse it.\n", i, i)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(md), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var log lockedLog
	s, err := Open(Config{Sys: e.sys, Scope: e.scope, Version: "1.2.3-test", Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	r := serve(t, s)
	ctx, hangUp := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, "POST", r.URL()+"api/v1/apply", strings.NewReader(`{"agents":["claude"]}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+r.Token())
	answered := make(chan error, 1)
	go func() {
		resp, err := r.client.Do(req)
		if err == nil {
			resp.Body.Close()
			err = fmt.Errorf("answered %s before the client hung up", resp.Status)
		}
		answered <- err
	}()
	for deadline := time.Now().Add(2 * time.Minute); !staging(claude); time.Sleep(time.Millisecond) {
		select {
		case err := <-answered:
			t.Fatalf("apply ended before it was seen writing: %v", err)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("apply never started writing")
		}
	}
	hangUp()
	if err := <-answered; ctx.Err() == nil || !strings.Contains(err.Error(), "context canceled") {
		t.Fatalf("client: %v", err)
	}
	r.stop() // waits for the handler
	if l := log.String(); !strings.Contains(l, "POST /api/v1/apply: the client went away: stopped (") || strings.Contains(l, "cut off") {
		t.Fatalf("the apply did not stop with its request:\n%s", l)
	}
	if _, err := os.Stat(filepath.Join(claude, "skills")); !os.IsNotExist(err) {
		t.Errorf("the stopped apply published the skills folder: %v", err)
	}
	for _, dir := range []string{e.home, e.scope.Path} {
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if _, ok := fsys.TempOf(d.Name()); ok {
				t.Errorf("a temporary entry is left: %s", p)
			}
			return err
		})
	}
	r2 := e.start(t, 0)
	if rp := r2.do("POST", "api/v1/apply", `{"agents":["claude"]}`); rp.status != http.StatusOK {
		t.Fatalf("the apply after: %d %s", rp.status, rp.body)
	}
	rp := r2.do("GET", "api/v1/apply?agent=claude", "")
	for _, f := range allTargets(t, rp) {
		if f.State != "current" {
			t.Errorf("after the finished apply: %s is %s", f.Path, f.State)
		}
	}
	if data, err := os.ReadFile(filepath.Join(claude, "skills", "s1999", "SKILL.md")); err != nil || !strings.Contains(string(data), "Use it.") {
		t.Errorf("the last skill after the finished apply: %q %v", data, err)
	}
}

// staging reports whether a temporary entry of charter's is in dir.
func staging(dir string) bool {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if _, ok := fsys.TempOf(e.Name()); ok {
			return true
		}
	}
	return false
}
