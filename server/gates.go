package server

import (
	"crypto/subtle"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/errcode"
)

const shutdownPath = "/api/v1/shutdown"

// ServeHTTP applies the gates, in order, to every request: Host (against
// DNS rebinding), Origin (against cross-site requests), then the token for
// /api/.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if isAPI(r.URL.Path) {
		// before any gate: the 421 and 403 of /api/ are never cached either
		w.Header().Set("Cache-Control", "no-store")
	}
	if !s.hostOK(r.Host) {
		writeError(w, errcode.Errorf(core.CodeMisdirectedRequest, "host %q is not this server: use 127.0.0.1:%d or localhost:%d", r.Host, s.port, s.port))
		return
	}
	if origins, ok := r.Header["Origin"]; ok && !s.originOK(origins) {
		writeError(w, errcode.Errorf(core.CodeForbiddenOrigin, "requests from origin %q are not allowed", strings.Join(origins, ", ")))
		return
	}
	if isAPI(r.URL.Path) {
		s.serveAPI(w, r)
		return
	}
	if r.RequestURI == "*" && r.Method == http.MethodOptions {
		serveOptions(w)
		return
	}
	s.serveHub(w, r)
}

func isAPI(path string) bool { return path == "/api" || strings.HasPrefix(path, "/api/") }

// serveOptions answers OPTIONS * (RFC 9110 §9.3.7), which Go would answer
// itself before the gates (DisableGeneralOptionsHandler keeps it here):
// the methods the server implements, and no content.
func serveOptions(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Allow", "GET, HEAD, POST, PATCH, DELETE")
	h.Set("Content-Length", "0")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
}

func (s *Server) hostOK(host string) bool {
	port := ":" + strconv.Itoa(s.port)
	return host == "127.0.0.1"+port || strings.EqualFold(host, "localhost"+port)
}

func (s *Server) originOK(origins []string) bool {
	if len(origins) != 1 {
		return false
	}
	o, port := origins[0], ":"+strconv.Itoa(s.port)
	return o == "http://127.0.0.1"+port || strings.EqualFold(o, "http://localhost"+port)
}

// authorized checks the bearer token in constant time. The scheme name is
// case-insensitive (RFC 7235), the token exact. Only the shutdown beacon may
// carry it in the query: navigator.sendBeacon cannot set headers.
func (s *Server) authorized(r *http.Request) bool {
	if h := r.Header.Values("Authorization"); len(h) > 0 {
		scheme, tok, ok := strings.Cut(h[0], " ")
		return len(h) == 1 && ok && strings.EqualFold(scheme, "Bearer") && s.tokenOK(strings.TrimLeft(tok, " "))
	}
	if isBeacon(r) {
		q := r.URL.Query()["token"]
		return len(q) == 1 && s.tokenOK(q[0])
	}
	return false
}

// isBeacon reports a shutdown beacon: POST /api/v1/shutdown without an
// Authorization header.
func isBeacon(r *http.Request) bool {
	return r.Method == http.MethodPost && r.URL.Path == shutdownPath && len(r.Header.Values("Authorization")) == 0
}

func (s *Server) tokenOK(tok string) bool {
	return subtle.ConstantTimeCompare([]byte(tok), []byte(s.token)) == 1
}

// subtree is the folder route that owns path: /api/v1/content/ serves
// /api/v1/content/{kind}/{name}.
func subtree(path string) string {
	if strings.HasPrefix(path, contentPrefix) {
		return contentPrefix
	}
	return ""
}

// serveAPI authenticates, routes and caps the body of an /api/ request.
func (s *Server) serveAPI(w http.ResponseWriter, r *http.Request) {
	if !s.authorized(r) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="charter"`)
		writeError(w, errcode.Errorf(core.CodeUnauthorized, "missing or wrong bearer token"))
		return
	}
	s.idle.begin()
	defer s.idle.end() // a long request holds the clock until it ends
	if !isBeacon(r) {
		s.keepAlive()
	}
	eps, ok := s.routes[r.URL.Path]
	if !ok {
		eps, ok = s.routes[subtree(r.URL.Path)]
	}
	if !ok {
		writeError(w, errNotFound(r))
		return
	}
	// HEAD is GET without the body (RFC 9110 §9.3.2): net/http drops what
	// the GET handler writes, and GET handlers only read.
	method := r.Method
	if method == http.MethodHead {
		method = http.MethodGet
	}
	i := slices.IndexFunc(eps, func(e endpoint) bool { return e.method == method })
	if i < 0 {
		var allow []string
		for _, e := range eps {
			allow = append(allow, e.method)
			if e.method == http.MethodGet {
				allow = append(allow, http.MethodHead)
			}
		}
		writeError(w, errMethod(w, r, allow))
		return
	}
	if r.URL.Path != taggedPath && untagged(w, r, eps) {
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	if err := eps[i].fn(w, r); err != nil {
		if r.Context().Err() != nil {
			// No one reads the answer: the log says what became of the work.
			s.logf("%s %s: the client went away: %s", r.Method, r.URL.Path, s.cfg.Sys.ErrorMessage(err))
		}
		s.writeError(w, err)
	}
}
