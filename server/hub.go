package server

import (
	"bytes"
	"embed"
	"io/fs"
	"net/http"
	"strings"
	"time"

	"github.com/agentkit/charter/core/lazy"
)

//go:embed web
var webFiles embed.FS

// web is the hub's static files, by name.
var web = lazy.Value[fs.FS]{Make: func() fs.FS {
	sub, _ := fs.Sub(webFiles, "web") // "web" is a valid name
	return sub
}}

// hubCSP allows the hub's own files only and forbids framing (clickjacking).
const hubCSP = "default-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// serveHub serves index.html at / and the other static files by name.
func (s *Server) serveHub(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(r.URL.Path, "/")
	if name == "" {
		name = "index.html"
	}
	data, err := fs.ReadFile(web.Get(), name)
	if !fs.ValidPath(name) || err != nil {
		writeError(w, errNotFound(r))
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		writeError(w, errMethod(w, r, []string{http.MethodGet, http.MethodHead}))
		return
	}
	h := w.Header()
	h.Set("Content-Security-Policy", hubCSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(data))
}
