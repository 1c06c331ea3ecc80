package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A GET of the rules list whose request is cancelled (the client went
// away) while a big library loads answers with the cancellation, never
// the list, and the log says the client went away; the same request
// live lists every rule.
func TestContentListCancelled(t *testing.T) {
	e := newEnv(t)
	dir := filepath.Join(e.scope.Path, "rules")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range 2000 {
		md := fmt.Sprintf("---\ndescription: rule %d\n---\nDo %d.\n", i, i)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("r%04d.md", i)), []byte(md), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var log lockedLog
	s, err := Open(Config{Sys: e.sys, Scope: e.scope, Version: "1.2.3-test", Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	r := serve(t, s)
	get := func(ctx context.Context) *httptest.ResponseRecorder {
		req := httptest.NewRequestWithContext(ctx, http.MethodGet, r.URL()+"api/v1/content/rules", nil)
		req.Header.Set("Authorization", "Bearer "+r.Token())
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		return rec
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rec := get(ctx)
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(rec.Body.Bytes(), &doc); err != nil {
		t.Fatalf("cancelled answer is not JSON: %v\n%s", err, rec.Body)
	}
	if rec.Code == http.StatusOK || doc["items"] != nil || doc["error"] == nil {
		t.Errorf("cancelled GET answered %d %.200s; want the error, not the list", rec.Code, rec.Body)
	}
	if !strings.Contains(log.String(), "GET /api/v1/content/rules: the client went away: context canceled") {
		t.Errorf("the log does not say the request was cancelled:\n%s", log.String())
	}

	rec = get(context.Background())
	var list contentList
	if err := json.Unmarshal(rec.Body.Bytes(), &list); err != nil || rec.Code != http.StatusOK || len(list.Items) != 2000 {
		t.Errorf("live GET: %d, %d items, %v; want 200 and 2000", rec.Code, len(list.Items), err)
	}
}
