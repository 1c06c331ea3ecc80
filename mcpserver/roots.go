package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentkit/charter/core/fsys"
)

// RootsTimeout bounds the wait for a client's answer to roots/list. A
// client that announces roots but never answers would otherwise hold every
// call; after this long charter works in its own working directory.
const RootsTimeout = 3 * time.Second

// rootsInput names the roots request among a call's input requests.
const rootsInput = "roots"

// rootsProtocol is the first protocol in which the server may not ask the
// client itself: roots come back as the answer to an input request.
const rootsProtocol = "2026-07-28"

// clientDir is the directory a session works in, once known.
type clientDir struct {
	ready chan struct{} // closed when path and note are set
	path  string
	// note says why charter's working directory is used although the
	// client announced roots; empty when the first root is used.
	note string
	err  error
}

// workDir is the directory the client works in: its first root when it
// announces roots, else charter's working directory. A client on the
// initialize handshake is asked once per connection, for at most
// RootsTimeout; an error or no answer falls back to the working directory,
// and the next notifications/roots/list_changed asks again. A client on the
// stateless protocol gets the request back as an input request, answered
// in the call's retry.
func (s *Server) workDir(ctx context.Context, sess *mcp.ServerSession, caps *mcp.ClientCapabilities, answers mcp.InputResponseMap) (string, mcp.InputRequestMap, error) {
	if caps == nil || caps.RootsV2 == nil {
		dir, err := s.opts.Getwd()
		return dir, nil, err
	}
	if sess == nil || multiRoundTrip(sess) {
		return s.workDirFromAnswers(sess, caps, answers)
	}
	s.mu.Lock()
	d, ok := s.roots[sess]
	if !ok {
		d = &clientDir{ready: make(chan struct{})}
		s.roots[sess] = d
	}
	s.mu.Unlock()
	if !ok {
		// Not tied to this call: the answer serves every call of the
		// connection, and RootsTimeout bounds it.
		s.askRoots(context.WithoutCancel(ctx), sess, d)
	}
	select {
	case <-d.ready:
		return d.path, nil, d.err
	case <-ctx.Done():
		return "", nil, ctx.Err()
	}
}

// askRoots asks the client for its roots and settles d.
func (s *Server) askRoots(ctx context.Context, sess *mcp.ServerSession, d *clientDir) {
	defer close(d.ready)
	ctx, cancel := context.WithTimeout(ctx, RootsTimeout)
	defer cancel()
	res, err := sess.ListRoots(ctx, nil)
	var ok bool
	if err == nil {
		if d.path, ok = s.firstRoot(res); !ok {
			d.note = "the client's first root is not a file:// directory on this machine"
		}
	} else if ctx.Err() != nil {
		d.note = fmt.Sprintf("the client did not answer roots/list within %s", RootsTimeout)
	} else {
		d.note = fmt.Sprintf("the client answered roots/list with an error: %v", err)
	}
	if !ok {
		d.path, d.err = s.opts.Getwd()
	}
}

// workDirFromAnswers is workDir on the stateless protocol.
func (s *Server) workDirFromAnswers(sess *mcp.ServerSession, caps *mcp.ClientCapabilities, answers mcp.InputResponseMap) (string, mcp.InputRequestMap, error) {
	s.mu.Lock()
	d, ok := s.roots[sess]
	s.mu.Unlock()
	if ok && sess != nil {
		<-d.ready // settled before it was stored
		return d.path, nil, d.err
	}
	if answers == nil {
		return "", mcp.InputRequestMap{rootsInput: &mcp.ListRootsParams{}}, nil
	}
	d = &clientDir{ready: make(chan struct{})}
	close(d.ready)
	res, _ := answers[rootsInput].(*mcp.ListRootsResult)
	var found bool
	if d.path, found = s.firstRoot(res); !found {
		d.note = "the client gave no file:// root"
		if d.path, d.err = s.opts.Getwd(); d.err != nil {
			return "", nil, d.err
		}
	}
	// Only a client that says when its roots change may have them remembered.
	if caps.RootsV2.ListChanged && sess != nil {
		s.mu.Lock()
		s.roots[sess] = d
		s.mu.Unlock()
	}
	return d.path, nil, nil
}

// multiRoundTrip reports whether sess speaks the stateless protocol, where
// a server may not send the client requests of its own.
func multiRoundTrip(sess *mcp.ServerSession) bool {
	p := sess.InitializeParams()
	return p == nil || p.ProtocolVersion >= rootsProtocol
}

// rootsNote says why the session works in charter's working directory
// although its client announced roots; empty otherwise.
func (s *Server) rootsNote(sess *mcp.ServerSession) string {
	s.mu.Lock()
	d, ok := s.roots[sess]
	s.mu.Unlock()
	if !ok {
		return ""
	}
	select {
	case <-d.ready:
		return d.note
	default:
		return ""
	}
}

func (s *Server) rootsChanged(ctx context.Context, req *mcp.RootsListChangedRequest) {
	s.mu.Lock()
	delete(s.roots, req.Session)
	s.mu.Unlock()
}

// firstRoot turns the client's first root into a path. Only file:// roots
// name a directory; any other first root is as good as none.
func (s *Server) firstRoot(res *mcp.ListRootsResult) (string, bool) {
	if res == nil || len(res.Roots) == 0 || res.Roots[0] == nil {
		return "", false
	}
	return fileURIPath(res.Roots[0].URI, s.opts.Paths)
}

// fileURIPath is the path a file:// URI names (RFC 8089), in style ps.
func fileURIPath(uri string, ps fsys.PathStyle) (string, bool) {
	u, err := url.Parse(uri)
	if err != nil || !strings.EqualFold(u.Scheme, "file") || u.Opaque != "" {
		return "", false
	}
	p := u.Path
	if ps.Windows {
		switch {
		case u.Host != "" && !strings.EqualFold(u.Host, "localhost"):
			p = "//" + u.Host + p // UNC: file://host/share/x
		case len(p) >= 3 && p[0] == '/' && p[2] == ':':
			p = p[1:] // file:///C:/x
		}
		p = strings.ReplaceAll(p, "/", `\`)
	} else if u.Host != "" && !strings.EqualFold(u.Host, "localhost") {
		return "", false // another machine's file
	}
	if !ps.IsAbs(p) {
		return "", false
	}
	return ps.Clean(p), true
}

// capsOf is the client's capabilities for a call whose _meta is meta
// (caps, the SDK's reading of them). On the stateless protocol each call
// carries them, and the SDK decodes them again on every call through a
// 32 KB buffer: the last reading is kept, by their JSON.
func (s *Server) capsOf(meta map[string]any, caps func() *mcp.ClientCapabilities) *mcp.ClientCapabilities {
	raw, ok := meta[mcp.MetaKeyClientCapabilities]
	if !ok || raw == nil {
		return caps() // the session's, from initialize
	}
	key, err := json.Marshal(raw)
	if err != nil {
		return caps()
	}
	s.mu.Lock()
	if s.lastCaps.v != nil && s.lastCaps.key == string(key) {
		defer s.mu.Unlock()
		return s.lastCaps.v
	}
	s.mu.Unlock()
	v := caps()
	if v != nil {
		s.mu.Lock()
		s.lastCaps.key, s.lastCaps.v = string(key), v
		s.mu.Unlock()
	}
	return v
}
