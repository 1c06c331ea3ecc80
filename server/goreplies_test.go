package server

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
)

// Requests Go's net/http refuses before any handler runs are answered in
// the one error shape too, with Go's status.
func TestGoOwnRepliesHaveTheErrorShape(t *testing.T) {
	r := newEnv(t).start(t, 0)
	for _, c := range []struct {
		name, raw string
		status    int
		code      string
	}{
		{"malformed request line", "GARBAGE\r\n\r\n", 400, "invalid_request"},
		{"malformed header", "GET /api/v1/ping HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n", 400, "invalid_request"},
		{"missing Host", "GET /api/v1/ping HTTP/1.1\r\n\r\n", 400, "invalid_request"},
		{"unsupported Transfer-Encoding", "POST /api/v1/settings HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", 501, "not_supported"},
		{"unsupported version", "GET /api/v1/ping HTTP/2.7\r\nHost: x\r\n\r\n", 505, "not_supported"},
		{"unsupported Expect", "GET /api/v1/ping HTTP/1.1\r\nHost: x\r\nExpect: bogus\r\n\r\n", 417, "invalid_request"},
		{"headers too large", "GET /api/v1/ping HTTP/1.1\r\nHost: x\r\nX-Big: " + strings.Repeat("a", 2<<20) + "\r\n\r\n", 431, "payload_too_large"},
	} {
		t.Run(c.name, func(t *testing.T) {
			conn, err := net.Dial("tcp", loopbackAddr(r.Port()))
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			go io.WriteString(conn, c.raw) // a large request may be cut off by the answer
			res, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(res.Body)
			var doc struct {
				Error struct{ Code, Message string }
			}
			if res.StatusCode != c.status || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") ||
				json.Unmarshal(body, &doc) != nil || doc.Error.Code != c.code || doc.Error.Message == "" {
				t.Fatalf("%d %s %q, want %d with code %s", res.StatusCode, res.Header.Get("Content-Type"), body, c.status, c.code)
			}
		})
	}
}

// A handler's own plain answer is left as it is: only Go's exact reply is
// rewritten.
func TestRewriteGoReplyOnlyGos(t *testing.T) {
	for _, p := range []string{
		"HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\nok",
		"HTTP/1.1 400 Bad Request\r\nDate: x\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n400",
		`{"error":{}}`,
	} {
		if out, ok := rewriteGoReply([]byte(p)); ok {
			t.Errorf("%q rewritten as %q", p, out)
		}
	}
	out, ok := rewriteGoReply([]byte("HTTP/1.1 400 Bad Request: missing required Host header" + goReplyHeaders + "400 Bad Request: missing required Host header"))
	if !ok || !strings.Contains(string(out), `"message":"the request is not valid HTTP/1.1 (missing required Host header)`) {
		t.Fatalf("%s", out)
	}
}
