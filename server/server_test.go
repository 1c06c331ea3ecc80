package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/companion"
	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/profile"
	"github.com/agentkit/charter/core/project"
)

// env is a pinned machine on a real temporary directory: links, modes and
// renames need a real file system.
type env struct {
	dir, home string
	sys       *core.System
	scope     core.Scope
}

// newEnv builds the machine; extra variables may refer to $HOME and $DIR.
func newEnv(t testing.TB, extra ...string) *env {
	t.Helper()
	m := coretest.New(t, coretest.Env(extra...))
	root := filepath.Join(m.Dir, "root")
	sc, err := profile.ResolveScope(m.Sys, &root)
	if err != nil {
		t.Fatal(err)
	}
	return &env{dir: m.Dir, home: m.Home, sys: m.Sys, scope: sc}
}

// running is a server answering on a real loopback port.
type running struct {
	*Server
	t      testing.TB
	client *http.Client
	cancel context.CancelFunc
	done   chan error
}

func (e *env) start(t testing.TB, idle time.Duration) *running {
	t.Helper()
	s, _ := openServer(t, e.sys, e.scope, "", idle)
	return serve(t, s)
}

// startProject serves the env's scope and the project at dir.
func (e *env) startProject(t testing.TB, dir string) (*running, *core.Project) {
	t.Helper()
	s, proj := openServer(t, e.sys, e.scope, dir, 0)
	return serve(t, s), proj
}

// openServer opens a server for sc and, unless dir is "", the project
// found at dir.
func openServer(t testing.TB, sys *core.System, sc core.Scope, dir string, idle time.Duration) (*Server, *core.Project) {
	t.Helper()
	var proj *core.Project
	if dir != "" {
		var err error
		if proj, err = project.Find(sys, &dir, false); err != nil {
			t.Fatal(err)
		}
	}
	s, err := Open(Config{Sys: sys, Scope: sc, Project: proj, Version: "1.2.3-test", IdleTimeout: idle})
	if err != nil {
		t.Fatal(err)
	}
	return s, proj
}

func serve(t testing.TB, s *Server) *running {
	ctx, cancel := context.WithCancel(context.Background())
	r := &running{Server: s, t: t, cancel: cancel, done: make(chan error, 1),
		client: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}}
	go func() { r.done <- s.Serve(ctx) }()
	t.Cleanup(func() { r.stop() })
	return r
}

// stop cancels the server and waits for Serve to return.
func (r *running) stop() error {
	r.t.Helper()
	r.cancel()
	return r.wait()
}

func (r *running) wait() error {
	r.t.Helper()
	select {
	case err, ok := <-r.done:
		if ok {
			close(r.done)
		}
		return err
	case <-time.After(20 * time.Second):
		r.t.Fatal("server did not stop")
		return nil
	}
}

// reply is a response with its body read.
type reply struct {
	status int
	header http.Header
	body   []byte
}

func (rp reply) json(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(rp.body, &m); err != nil {
		t.Fatalf("body is not JSON: %v\n%s", err, rp.body)
	}
	return m
}

// errCode returns error.code of the one error shape, failing on any other shape.
func (rp reply) errCode(t testing.TB) string {
	t.Helper()
	e, ok := rp.json(t)["error"].(map[string]any)
	if !ok {
		t.Fatalf("no error object in %s", rp.body)
	}
	code, _ := e["code"].(string)
	if msg, _ := e["message"].(string); code == "" || msg == "" {
		t.Fatalf("error without code or message: %s", rp.body)
	}
	return code
}

// do sends a request with the bearer token; mods may change anything.
func (r *running) do(method, path, body string, mods ...func(*http.Request)) reply {
	r.t.Helper()
	rp, err := r.send(method, path, body, mods...)
	if err != nil {
		r.t.Fatal(err)
	}
	return rp
}

// send is do for goroutines, which must not call Fatal.
func (r *running) send(method, path, body string, mods ...func(*http.Request)) (reply, error) {
	req, err := http.NewRequest(method, r.URL()+path, strings.NewReader(body))
	if err != nil {
		return reply{}, err
	}
	req.Header.Set("Authorization", "Bearer "+r.Token())
	for _, m := range mods {
		m(req)
	}
	resp, err := r.client.Do(req)
	if err != nil {
		return reply{}, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	return reply{status: resp.StatusCode, header: resp.Header, body: data}, err
}

func header(k, v string) func(*http.Request) { return func(r *http.Request) { r.Header.Set(k, v) } }
func host(h string) func(*http.Request)      { return func(r *http.Request) { r.Host = h } }
func noAuth(r *http.Request)                 { r.Header.Del("Authorization") }

func TestGates(t *testing.T) {
	r := newEnv(t).start(t, 0)
	port := fmt.Sprint(r.Port())
	tok := r.Token()
	near := tok[:63] + map[bool]string{true: "1", false: "0"}[tok[63] == '0']
	tests := []struct {
		name   string
		method string
		path   string
		mods   []func(*http.Request)
		status int
		code   string
	}{
		{"127.0.0.1 host", "GET", "api/v1/ping", nil, 200, ""},
		{"localhost host", "GET", "api/v1/ping", fl(host("localhost:" + port)), 200, ""},
		{"foreign host", "GET", "api/v1/ping", fl(host("evil.example:" + port)), 421, "misdirected_request"},
		{"rebound name", "GET", "api/v1/ping", fl(host("attacker.localhost:" + port)), 421, "misdirected_request"},
		{"other port", "GET", "api/v1/ping", fl(host("127.0.0.1:1")), 421, "misdirected_request"},
		{"host without port", "GET", "api/v1/ping", fl(host("127.0.0.1")), 421, "misdirected_request"},
		{"host gate on the hub", "GET", "", fl(host("evil.example")), 421, "misdirected_request"},
		{"host before token", "GET", "api/v1/ping", fl(host("evil.example"), noAuth), 421, "misdirected_request"},
		{"same origin 127.0.0.1", "GET", "api/v1/ping", fl(header("Origin", "http://127.0.0.1:"+port)), 200, ""},
		{"same origin localhost", "GET", "api/v1/ping", fl(header("Origin", "http://localhost:"+port)), 200, ""},
		{"foreign origin", "GET", "api/v1/ping", fl(header("Origin", "http://evil.example")), 403, "forbidden_origin"},
		{"null origin", "GET", "api/v1/ping", fl(header("Origin", "null")), 403, "forbidden_origin"},
		{"https origin", "GET", "api/v1/ping", fl(header("Origin", "https://127.0.0.1:"+port)), 403, "forbidden_origin"},
		{"origin on another port", "GET", "api/v1/ping", fl(header("Origin", "http://127.0.0.1:1")), 403, "forbidden_origin"},
		{"origin gate on the hub", "GET", "", fl(header("Origin", "http://evil.example")), 403, "forbidden_origin"},
		{"origin before token", "GET", "api/v1/ping", fl(header("Origin", "http://evil.example"), noAuth), 403, "forbidden_origin"},
		{"missing token", "GET", "api/v1/ping", fl(noAuth), 401, "unauthorized"},
		{"wrong token", "GET", "api/v1/ping", fl(header("Authorization", "Bearer "+strings.Repeat("0", 64))), 401, "unauthorized"},
		{"near-miss token", "GET", "api/v1/ping", fl(header("Authorization", "Bearer "+near)), 401, "unauthorized"},
		{"token prefix", "GET", "api/v1/ping", fl(header("Authorization", "Bearer "+tok[:63])), 401, "unauthorized"},
		{"token with extra", "GET", "api/v1/ping", fl(header("Authorization", "Bearer "+tok+"0")), 401, "unauthorized"},
		{"token in upper case", "GET", "api/v1/ping", fl(header("Authorization", "Bearer "+strings.ToUpper(tok))), 401, "unauthorized"},
		{"other scheme", "GET", "api/v1/ping", fl(header("Authorization", "Basic "+tok)), 401, "unauthorized"},
		{"bare token", "GET", "api/v1/ping", fl(header("Authorization", tok)), 401, "unauthorized"},
		{"lowercase bearer", "GET", "api/v1/ping", fl(header("Authorization", "bearer "+tok)), 200, ""},
		{"uppercase bearer", "GET", "api/v1/ping", fl(header("Authorization", "BEARER "+tok)), 200, ""},
		{"token in query", "GET", "api/v1/ping?token=" + tok, fl(noAuth), 401, "unauthorized"},
		{"query token on settings", "PATCH", "api/v1/settings?token=" + tok, fl(noAuth), 401, "unauthorized"},
		{"query token needs POST", "GET", "api/v1/shutdown?token=" + tok, fl(noAuth), 401, "unauthorized"},
		{"wrong beacon token", "POST", "api/v1/shutdown?token=" + near, fl(noAuth), 401, "unauthorized"},
		{"unknown api path needs token", "GET", "api/v1/nope", fl(noAuth), 401, "unauthorized"},
		{"hub needs no token", "GET", "", fl(noAuth), 200, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rp := r.do(tt.method, tt.path, "", tt.mods...)
			if rp.status != tt.status {
				t.Fatalf("status %d, want %d: %s", rp.status, tt.status, rp.body)
			}
			if tt.code != "" {
				if got := rp.errCode(t); got != tt.code {
					t.Errorf("code %q, want %q", got, tt.code)
				}
			}
		})
	}
	// The server is still up: none of the above stopped it.
	if rp := r.do("GET", "api/v1/ping", ""); rp.status != 200 {
		t.Fatalf("ping after gates: %d", rp.status)
	}
}

func fl(m ...func(*http.Request)) []func(*http.Request) { return m }

// stateFiles are the discovery and token files a running server keeps.
func (e *env) stateFiles() []string {
	return []string{DiscoveryPath(e.sys, e.scope), TokenPath(e.sys, e.scope)}
}

// noStateFiles fails unless the server removed its state files.
func (e *env) noStateFiles(t *testing.T) {
	t.Helper()
	for _, p := range e.stateFiles() {
		if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s left behind after shutdown: %v", p, err)
		}
	}
}

// HTTP/1.0 allows a request without Host; it is not this server's name.
func TestMissingHost(t *testing.T) {
	r := newEnv(t).start(t, 0)
	c, err := net.Dial("tcp", loopbackAddr(r.Port()))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "GET /api/v1/ping HTTP/1.0\r\nAuthorization: Bearer %s\r\n\r\n", r.Token())
	status, err := io.ReadAll(c)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(status, []byte("HTTP/1.0 421")) {
		t.Fatalf("got %q", status)
	}
}

func TestNotFoundAndMethods(t *testing.T) {
	r := newEnv(t).start(t, 0)
	tests := []struct {
		method, path string
		status       int
		code, allow  string
	}{
		{"GET", "api/v1/nope", 404, "not_found", ""},
		{"GET", "api/v2/ping", 404, "not_found", ""},
		{"GET", "api", 404, "not_found", ""},
		{"GET", "nope.html", 404, "not_found", ""},
		{"GET", "web/index.html", 404, "not_found", ""},
		{"GET", "..%2fserver.go", 404, "not_found", ""},
		{"POST", "nope", 404, "not_found", ""},
		{"POST", "api/v1/ping", 405, "method_not_allowed", "GET, HEAD"},
		{"DELETE", "api/v1/settings", 405, "method_not_allowed", "GET, HEAD, PATCH"},
		{"PUT", "api/v1/settings/schema", 405, "method_not_allowed", "GET, HEAD"},
		{"GET", "api/v1/wizard/dismiss-recommendation", 405, "method_not_allowed", "POST"},
		{"POST", "api/v1/wizard/detect-agent-switch", 405, "method_not_allowed", "GET, HEAD"},
		{"POST", "", 405, "method_not_allowed", "GET, HEAD"},
	}
	for _, tt := range tests {
		t.Run(tt.method+" /"+tt.path, func(t *testing.T) {
			rp := r.do(tt.method, tt.path, "")
			if rp.status != tt.status {
				t.Fatalf("status %d, want %d: %s", rp.status, tt.status, rp.body)
			}
			if got := rp.errCode(t); got != tt.code {
				t.Errorf("code %q, want %q", got, tt.code)
			}
			if got := rp.header.Get("Allow"); got != tt.allow {
				t.Errorf("Allow %q, want %q", got, tt.allow)
			}
			if ct := rp.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
				t.Errorf("Content-Type %q", ct)
			}
		})
	}
}

func TestHeaders(t *testing.T) {
	r := newEnv(t).start(t, 0)
	for _, p := range []string{"api/v1/ping", "api/v1/settings", "api/v1/nope"} {
		if got := r.do("GET", p, "").header.Get("Cache-Control"); got != "no-store" {
			t.Errorf("%s: Cache-Control %q, want no-store", p, got)
		}
	}
	if got := r.do("GET", "api/v1/ping", "", noAuth).header.Get("Cache-Control"); got != "no-store" {
		t.Errorf("401: Cache-Control %q, want no-store", got)
	}
	for _, p := range []string{"", "index.html"} {
		rp := r.do("GET", p, "", noAuth)
		if rp.status != 200 || !bytes.Contains(rp.body, []byte("charter settings hub")) {
			t.Fatalf("/%s: %d %s", p, rp.status, rp.body)
		}
		if csp := rp.header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors 'none'") {
			t.Errorf("/%s: CSP %q lacks frame-ancestors 'none'", p, csp)
		}
		if ct := rp.header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
			t.Errorf("/%s: Content-Type %q", p, ct)
		}
	}
}

func TestPingAndDetect(t *testing.T) {
	e := newEnv(t)
	r := e.start(t, 0)
	rp := r.do("GET", "api/v1/ping", "")
	want, _ := json.Marshal(core.Ping(e.scope, "1.2.3-test"))
	if rp.status != 200 || !bytes.Equal(bytes.TrimSpace(rp.body), want) {
		t.Fatalf("ping: %d\n got %s\nwant %s", rp.status, rp.body, want)
	}
	rp = r.do("GET", "api/v1/wizard/detect-agent-switch", "")
	d, err := companion.Detect(e.sys)
	if err != nil {
		t.Fatal(err)
	}
	want, _ = json.Marshal(d)
	if rp.status != 200 || !bytes.Equal(bytes.TrimSpace(rp.body), want) {
		t.Fatalf("detect: %d\n got %s\nwant %s", rp.status, rp.body, want)
	}
}

func TestBodyCap(t *testing.T) {
	r := newEnv(t).start(t, 0)
	big := `{"id":"agent-switch","pad":"` + strings.Repeat("x", maxBody) + `"}`
	rp := r.do("POST", "api/v1/wizard/dismiss-recommendation", big)
	if rp.status != 413 || rp.errCode(t) != "payload_too_large" {
		t.Fatalf("got %d %s", rp.status, rp.body)
	}
	rp = r.do("PATCH", "api/v1/settings", big, header("If-Match", `"x"`))
	if rp.status != 413 {
		t.Fatalf("PATCH: got %d %s", rp.status, rp.body)
	}
}
