package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/settings"
)

// apiError is a failure that belongs to HTTP itself rather than to core.
type apiError struct {
	status int
	code   string
	msg    string
}

func (e *apiError) Error() string { return e.msg }

func errorf(status int, code, format string, args ...any) *apiError {
	return &apiError{status: status, code: code, msg: fmt.Sprintf(format, args...)}
}

func errNotFound(r *http.Request) error {
	return errorf(http.StatusNotFound, "not_found", "no such resource: %s", r.URL.Path)
}

// errMethod also sets Allow, which a 405 must carry.
func errMethod(w http.ResponseWriter, r *http.Request, allow []string) error {
	w.Header().Set("Allow", strings.Join(allow, ", "))
	return errorf(http.StatusMethodNotAllowed, "method_not_allowed", "%s is not allowed on %s (allowed: %s)", r.Method, r.URL.Path, strings.Join(allow, ", "))
}

// errorResponse is the one place where errors meet HTTP: it picks the
// status and builds the body {"code","message",…extra}. Headers an error
// implies (the current ETag of a 412) are set on h.
func errorResponse(err error, h http.Header) (int, map[string]any) {
	body := map[string]any{"code": "internal", "message": err.Error()}
	maps.Copy(body, core.ErrorExtras(err))
	var (
		ae *apiError
		mb *http.MaxBytesError
		se *core.SharedWriteError
		ve *settings.ValidationError
		st *settings.StaleError
		sy *settings.SyntaxError
		ue *core.UsageError
	)
	status := http.StatusInternalServerError
	switch {
	case errors.As(err, &ae):
		status, body["code"] = ae.status, ae.code
	case errors.As(err, &mb):
		status, body["code"] = http.StatusRequestEntityTooLarge, "payload_too_large"
		body["message"] = fmt.Sprintf("request body larger than %d bytes", mb.Limit)
	case errors.As(err, &se):
		status, body["code"] = http.StatusConflict, "shared_write"
	case errors.As(err, &ve):
		status, body["code"] = http.StatusUnprocessableEntity, ve.Code()
	case errors.As(err, &st):
		status, body["code"] = http.StatusPreconditionFailed, "stale_etag"
		h.Set("ETag", st.Current)
	case errors.As(err, &sy):
		body["code"] = "malformed_settings"
	case errors.As(err, &ue):
		status, body["code"] = http.StatusUnprocessableEntity, ue.CodeOr("invalid_request")
	}
	return status, body
}

func writeError(w http.ResponseWriter, err error) {
	status, body := errorResponse(err, w.Header())
	writeJSON(w, status, map[string]any{"error": body})
}

// writeJSON writes one document. HTML escaping is off, as in the CLI: paths
// and commands should read as they are.
func writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		status, buf = http.StatusInternalServerError, *bytes.NewBufferString(`{"error":{"code":"internal","message":"encode the response"}}` + "\n")
	}
	writeRaw(w, status, buf.Bytes())
}

// writeRaw writes a JSON document already encoded.
func writeRaw(w http.ResponseWriter, status int, doc []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	w.Write(doc) // the status line is out: a failure here can only be seen by the client
}
