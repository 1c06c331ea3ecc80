package server

import (
	"net/http"
	"runtime/debug"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/errcode"
)

// recovering answers a handler's panic with the one error shape (500) and
// logs it, so that one bad request fails alone: net/http would only drop
// the connection, and the page would see no reason.
func (s *Server) recovering(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tw := &trackingWriter{ResponseWriter: w}
		defer func() {
			v := recover()
			if v == nil {
				return
			}
			if v == http.ErrAbortHandler { // net/http's way to cut a response short
				panic(v)
			}
			s.logf("internal error answering %s %s: %v\n%s", r.Method, r.URL.Path, v, debug.Stack())
			if !tw.wrote {
				writeError(tw, errcode.Errorf(core.CodeInternal,
					"internal error answering %s %s: %v (the server keeps running; please report this)", r.Method, r.URL.Path, v))
			}
		}()
		h.ServeHTTP(tw, r)
	})
}

// trackingWriter notes whether the status line has gone out.
type trackingWriter struct {
	http.ResponseWriter
	wrote bool
}

func (w *trackingWriter) WriteHeader(code int) {
	w.wrote = true
	w.ResponseWriter.WriteHeader(code)
}

func (w *trackingWriter) Write(b []byte) (int, error) {
	w.wrote = true
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection.
func (w *trackingWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
