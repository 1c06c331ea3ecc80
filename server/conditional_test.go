package server

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/agentkit/charter/core/dismiss"
	"github.com/agentkit/charter/core/settings"
)

// curl runs a request written as the curl command a user would type:
// -X METHOD, -H 'Name: value' (repeatable), -d 'body', then the path.
// $ETAG stands for the settings' current ETag. The bearer token is added.
func (r *running) curl(t *testing.T, cmd, etag string) reply {
	t.Helper()
	words := curlWords(t, strings.ReplaceAll(cmd, "$ETAG", etag))
	if len(words) == 0 || words[0] != "curl" {
		t.Fatalf("not a curl command: %s", cmd)
	}
	method, body, path := "", "", ""
	var mods []func(*http.Request)
	for i := 1; i < len(words); i++ {
		switch w := words[i]; w {
		case "-X", "-H", "-d":
			i++
			switch w {
			case "-X":
				method = words[i]
			case "-d":
				body = words[i]
			default:
				name, value, _ := strings.Cut(words[i], ":")
				mods = append(mods, func(req *http.Request) { req.Header.Add(name, strings.TrimSpace(value)) })
			}
		case "-I":
			method = "HEAD"
		default:
			path = strings.TrimPrefix(w, "/")
		}
	}
	if method == "" {
		method = "GET"
		if body != "" {
			method = "POST"
		}
	}
	return r.do(method, path, body, mods...)
}

// curlWords splits a command as a shell does, for single quotes only.
func curlWords(t *testing.T, s string) []string {
	var out []string
	var cur strings.Builder
	in, quoted := false, false
	for _, c := range s {
		switch {
		case c == '\'':
			in, quoted = !in, true
		case c == ' ' && !in:
			if cur.Len() > 0 || quoted {
				out = append(out, cur.String())
			}
			cur.Reset()
			quoted = false
		default:
			cur.WriteRune(c)
		}
	}
	if in {
		t.Fatalf("unbalanced quote in %s", s)
	}
	if cur.Len() > 0 || quoted {
		out = append(out, cur.String())
	}
	return out
}

// Conditional requests on GET /api/v1/settings and PATCH (RFC 9110 §13):
// If-None-Match with the current tag in any form is 304 on GET and 412 on
// PATCH; a failed If-Match is 412 on any method, evaluated first.
func TestConditionalSettings(t *testing.T) {
	e := newEnv(t)
	r := e.start(t, 0)
	if rp := r.do("PATCH", "api/v1/settings", `{"set":{"rules.tier":"full"}}`, header("If-Match", "*")); rp.status != 200 {
		t.Fatalf("seed: %d %s", rp.status, rp.body)
	}
	etag := r.do("GET", "api/v1/settings", "").header.Get("ETag")
	file := settings.New(e.sys, e.scope).Path()
	for _, c := range []struct {
		curl   string
		status int
	}{
		{`curl -H 'If-None-Match: $ETAG' /api/v1/settings`, 304},
		{`curl -H 'If-None-Match: W/$ETAG' /api/v1/settings`, 304},
		{`curl -H 'If-None-Match: "0000", $ETAG' /api/v1/settings`, 304},
		{`curl -H 'If-None-Match: "0000"' -H 'If-None-Match: $ETAG' /api/v1/settings`, 304},
		{`curl -H 'If-None-Match: *' /api/v1/settings`, 304},
		{`curl -I -H 'If-None-Match: $ETAG' /api/v1/settings`, 304},
		{`curl -H 'If-None-Match: "0000"' /api/v1/settings`, 200},
		{`curl -H 'If-Match: "nope"' /api/v1/settings`, 412},
		{`curl -H 'If-Match: W/$ETAG' /api/v1/settings`, 412},
		{`curl -H 'If-Match: "nope"' -H 'If-None-Match: $ETAG' /api/v1/settings`, 412},
		{`curl -H 'If-Match: $ETAG' /api/v1/settings`, 200},
		{`curl -H 'If-Match: *' /api/v1/settings`, 200},
		{`curl -H 'If-Match: $ETAG' -H 'If-None-Match: "0000"' /api/v1/settings`, 200},
		{`curl -X PATCH -H 'If-Match: $ETAG' -H 'If-None-Match: *' -d '{"set":{"rules.tier":"minimal"}}' /api/v1/settings`, 412},
		{`curl -X PATCH -H 'If-Match: *' -H 'If-None-Match: *' -d '{"set":{"rules.tier":"minimal"}}' /api/v1/settings`, 412},
		{`curl -X PATCH -H 'If-Match: $ETAG' -H 'If-None-Match: $ETAG' -d '{"set":{"rules.tier":"minimal"}}' /api/v1/settings`, 412},
		{`curl -X PATCH -H 'If-Match: $ETAG' -H 'If-None-Match: W/$ETAG' -d '{"set":{"rules.tier":"minimal"}}' /api/v1/settings`, 412},
		{`curl -X PATCH -H 'If-Match: "nope"' -d '{"set":{"rules.tier":"minimal"}}' /api/v1/settings`, 412},
		{`curl -X PATCH -H 'If-None-Match: *' -d '{"set":{"rules.tier":"minimal"},"base":{"rules.tier":"full"}}' /api/v1/settings`, 412},
	} {
		before, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		rp := r.curl(t, c.curl, etag)
		after, _ := os.ReadFile(file)
		switch {
		case rp.status != c.status:
			t.Errorf("%s: %d, want %d\n%s", c.curl, rp.status, c.status, rp.body)
		case rp.header.Get("Cache-Control") != "no-store":
			t.Errorf("%s: Cache-Control %q", c.curl, rp.header.Get("Cache-Control"))
		case c.status != 200 && string(before) != string(after):
			t.Errorf("%s: the file changed on a %d", c.curl, c.status)
		case c.status == 304 && (len(rp.body) != 0 || rp.header.Get("ETag") != etag):
			t.Errorf("%s: 304 with body %q, ETag %q", c.curl, rp.body, rp.header.Get("ETag"))
		case c.status == 412 && (rp.errCode(t) != "stale_etag" || rp.header.Get("ETag") != etag):
			t.Errorf("%s: 412 with ETag %q: %s", c.curl, rp.header.Get("ETag"), rp.body)
		case c.status == 200 && rp.header.Get("ETag") != etag && !strings.Contains(c.curl, "PATCH"):
			t.Errorf("%s: 200 with ETag %q", c.curl, rp.header.Get("ETag"))
		}
	}
	// the current tag held back from If-None-Match: the write goes through
	rp := r.curl(t, `curl -X PATCH -H 'If-Match: $ETAG' -H 'If-None-Match: "0000"' -d '{"set":{"rules.tier":"minimal"}}' /api/v1/settings`, etag)
	if rp.status != 200 || rp.header.Get("ETag") == etag {
		t.Fatalf("PATCH with a stale If-None-Match: %d %s", rp.status, rp.body)
	}
}

// An endpoint without an entity tag: If-Match names a tag it never has
// (412, nothing done), If-None-Match: * names the representation every
// GET endpoint has (304), * in If-Match holds where there is one.
func TestConditionalUntagged(t *testing.T) {
	e := newEnv(t)
	r := e.start(t, 0)
	for _, c := range []struct {
		curl   string
		status int
	}{
		{`curl -H 'If-Match: "nope"' /api/v1/ping`, 412},
		{`curl -H 'If-Match: *' /api/v1/ping`, 200},
		{`curl -H 'If-None-Match: *' /api/v1/ping`, 304},
		{`curl -H 'If-None-Match: "0000"' /api/v1/ping`, 200},
		{`curl -X POST -H 'If-Match: "nope"' -d '{"id":"agent-switch"}' /api/v1/wizard/dismiss-recommendation`, 412},
		{`curl -X POST -H 'If-Match: *' -d '{"id":"agent-switch"}' /api/v1/wizard/dismiss-recommendation`, 412},
	} {
		rp := r.curl(t, c.curl, "")
		if rp.status != c.status || rp.header.Get("Cache-Control") != "no-store" {
			t.Errorf("%s: %d (Cache-Control %q), want %d\n%s", c.curl, rp.status, rp.header.Get("Cache-Control"), c.status, rp.body)
		}
		if c.status == 412 && rp.errCode(t) != "stale_etag" {
			t.Errorf("%s: %s", c.curl, rp.body)
		}
	}
	if gone, err := dismiss.Dismissed(e.sys, "agent-switch"); err != nil || gone {
		t.Fatalf("a refused POST dismissed the recommendation (%v)", err)
	}
}

// Every reply under /api/ says no-store, the gates' 421 and 403 too.
func TestNoStoreOnEveryAPIReply(t *testing.T) {
	r := newEnv(t).start(t, 0)
	for _, c := range []struct {
		name, method, path string
		mod                func(*http.Request)
		status             int
	}{
		{"foreign Host", "GET", "api/v1/ping", host("evil.example:80"), 421},
		{"foreign Origin", "GET", "api/v1/ping", header("Origin", "http://evil.example"), 403},
		{"no token", "GET", "api/v1/ping", noAuth, 401},
		{"unknown path", "GET", "api/v1/nope", header("X-None", ""), 404},
		{"wrong method", "PUT", "api/v1/ping", header("X-None", ""), 405},
		{"ok", "GET", "api/v1/ping", header("X-None", ""), 200},
	} {
		rp := r.do(c.method, c.path, "", c.mod)
		if rp.status != c.status || rp.header.Get("Cache-Control") != "no-store" {
			t.Errorf("%s: %d, Cache-Control %q", c.name, rp.status, rp.header.Get("Cache-Control"))
		}
	}
}

// raw sends a request as bytes and reads the status line and headers.
func raw(t *testing.T, r *running, req string) *http.Response {
	t.Helper()
	c, err := net.Dial("tcp", loopbackAddr(r.Port()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	go io.WriteString(c, req) // a large request may be cut off by the answer
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	io.ReadAll(res.Body)
	return res
}

// The Host check holds on every request form (RFC 9112 §3.2): asterisk
// (OPTIONS *), absolute (the authority in the target wins over Host) and
// origin form.
func TestHostOnEveryRequestForm(t *testing.T) {
	r := newEnv(t).start(t, 0)
	own := fmt.Sprintf("127.0.0.1:%d", r.Port())
	for _, c := range []struct {
		req    string
		status int
	}{
		{"OPTIONS * HTTP/1.1\r\nHost: evil.example\r\n\r\n", 421},
		{"OPTIONS * HTTP/1.1\r\nHost: " + own + "\r\n\r\n", 200},
		{"OPTIONS * HTTP/1.1\r\nHost: " + own + "\r\nOrigin: http://evil.example\r\n\r\n", 403},
		{"GET http://evil.example/api/v1/ping HTTP/1.1\r\nHost: " + own + "\r\n\r\n", 421},
		{"GET http://" + own + "/ HTTP/1.1\r\nHost: evil.example\r\n\r\n", 200},
		{"GET / HTTP/1.1\r\nHost: evil.example\r\n\r\n", 421},
	} {
		res := raw(t, r, c.req)
		if res.StatusCode != c.status {
			t.Errorf("%q: %d, want %d", c.req, res.StatusCode, c.status)
		}
		if strings.HasPrefix(c.req, "OPTIONS") && c.status == 200 && res.Header.Get("Allow") == "" {
			t.Errorf("OPTIONS *: no Allow")
		}
	}
}

// The request line and headers may take 16 KiB together, as the docs say;
// one byte more is 431.
func TestHeaderLimit(t *testing.T) {
	r := newEnv(t).start(t, 0)
	head := fmt.Sprintf("GET /api/v1/ping HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nAuthorization: Bearer %s\r\nX-Pad: ", r.Port(), r.Token())
	for _, c := range []struct {
		size   int
		status int
	}{{maxHeader, 200}, {maxHeader + 1, 431}} {
		pad := c.size - len(head) - len("\r\n\r\n")
		req := head + strings.Repeat("a", pad) + "\r\n\r\n"
		if len(req) != c.size {
			t.Fatalf("built %d bytes, want %d", len(req), c.size)
		}
		if res := raw(t, r, req); res.StatusCode != c.status {
			t.Errorf("%d bytes of request line and headers: %d, want %d", c.size, res.StatusCode, c.status)
		}
	}
}
