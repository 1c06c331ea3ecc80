package server

import (
	"bytes"
	"fmt"
	"net"
	"net/http"
	"strconv"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/errcode"
)

// Go's net/http answers a request it cannot read (a malformed request
// line or header, headers past MaxHeaderBytes, an unknown
// Transfer-Encoding, an HTTP version it does not speak, an Expect other
// than 100-continue) itself, before any
// handler runs, in plain text: "HTTP/1.1 400 Bad Request" followed by
// exactly goReplyHeaders and a short text, in one write to the
// connection, and then closes it. No http.Server hook reaches those
// replies, so the listener's connections rewrite them into the one error
// shape on the way out. A handler's response never has that header block:
// it always carries a Date and a Content-Length or chunked encoding.
const goReplyHeaders = "\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n"

// goReplyListener wraps the server's listener so that its connections
// rewrite Go's own replies.
type goReplyListener struct{ net.Listener }

func (l goReplyListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return goReplyConn{c}, nil
}

type goReplyConn struct{ net.Conn }

func (c goReplyConn) Write(p []byte) (int, error) {
	if out, ok := rewriteGoReply(p); ok {
		if _, err := c.Conn.Write(out); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	return c.Conn.Write(p)
}

// rewriteGoReply turns one of Go's own plain-text replies into the one
// error shape with the same status; ok is false for anything else.
func rewriteGoReply(p []byte) ([]byte, bool) {
	rest, found := bytes.CutPrefix(p, []byte("HTTP/1.1 "))
	if !found || len(rest) < 4 || rest[3] != ' ' {
		return nil, false
	}
	status, err := strconv.Atoi(string(rest[:3]))
	if err != nil || status < 400 {
		return nil, false
	}
	line, text, found := bytes.Cut(rest, []byte(goReplyHeaders))
	if status == http.StatusExpectationFailed && bytes.HasSuffix(p, []byte("\r\nContent-Length: 0\r\n\r\n")) {
		// An Expect other than 100-continue: Go answers 417 with no body
		// (no handler of charter's ever answers 417).
		line, found = []byte("417 Expectation Failed"), true
	}
	if !found || bytes.ContainsAny(line, "\r\n") {
		return nil, false
	}
	e := goReplyError(status, string(text))
	body, _ := encodeJSON(errcode.NewBody(e, e.Error()).Document())
	var b bytes.Buffer
	fmt.Fprintf(&b, "HTTP/1.1 %s\r\nContent-Type: application/json; charset=utf-8\r\nX-Content-Type-Options: nosniff\r\nCache-Control: no-store\r\nContent-Length: %d\r\nConnection: close\r\n\r\n", line, len(body))
	b.Write(body)
	return b.Bytes(), true
}

// goReplyError is the error one of Go's own replies stands for.
func goReplyError(status int, text string) *core.Error {
	switch status {
	case 431:
		return errcode.Errorf(core.CodePayloadTooLarge, "the request's headers are too large: send fewer or shorter headers")
	case http.StatusExpectationFailed:
		return errcode.Errorf(core.CodeInvalidRequest, "the request's Expect header is not supported: send it without one (only 100-continue is understood)")
	case 501:
		return errcode.Errorf(core.CodeNotSupported, "the request's Transfer-Encoding is not supported: send the body with Content-Length or chunked")
	case 505:
		return errcode.Errorf(core.CodeNotSupported, "the request's HTTP version is not supported: use HTTP/1.1")
	}
	return errcode.Errorf(core.CodeInvalidRequest, "the request is not valid HTTP/1.1 (%s): check the request line and headers", goReplyReason(text))
}

// goReplyReason is Go's text without the status it repeats ("400 Bad
// Request: missing required Host header" → "missing required Host header").
func goReplyReason(text string) string {
	if _, after, ok := bytes.Cut([]byte(text), []byte(": ")); ok {
		return string(after)
	}
	return "malformed request"
}
