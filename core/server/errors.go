package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"strings"

	"github.com/agentkit/charter/core"
)

// statuses is the one place where error codes meet HTTP: each code of
// core's vocabulary has its status here, and nothing else picks one.
var statuses = map[string]int{
	core.CodeInternal: http.StatusInternalServerError,

	core.CodeUsage:                http.StatusUnprocessableEntity,
	core.CodeInvalidRequest:       http.StatusUnprocessableEntity,
	core.CodeInvalidJSON:          http.StatusBadRequest,
	core.CodeInvalidValue:         http.StatusUnprocessableEntity,
	core.CodeUnknownKey:           http.StatusUnprocessableEntity,
	core.CodeUnknownID:            http.StatusUnprocessableEntity,
	core.CodeUnknownAgent:         http.StatusUnprocessableEntity,
	core.CodeNoAgent:              http.StatusUnprocessableEntity,
	core.CodeScalarParent:         http.StatusUnprocessableEntity,
	core.CodeLockedByPolicy:       http.StatusUnprocessableEntity,
	core.CodeNotFound:             http.StatusNotFound,
	core.CodeMethodNotAllowed:     http.StatusMethodNotAllowed,
	core.CodePayloadTooLarge:      http.StatusRequestEntityTooLarge,
	core.CodePreconditionRequired: http.StatusPreconditionRequired,
	core.CodeUnauthorized:         http.StatusUnauthorized,
	core.CodeForbiddenOrigin:      http.StatusForbidden,
	core.CodeMisdirectedRequest:   http.StatusMisdirectedRequest,

	core.CodeSharedWrite:  http.StatusConflict,
	core.CodeCancelled:    http.StatusConflict,
	core.CodeStaleETag:    http.StatusPreconditionFailed,
	core.CodeReadOnlyFile: http.StatusConflict,
	core.CodeGateRunning:  http.StatusConflict,

	// A broken settings file is the server's own state gone wrong; broken
	// markers are the user's file, fixable and worth a retry.
	core.CodeMalformedSettings: http.StatusInternalServerError,
	core.CodeMalformedMarkers:  http.StatusConflict,
	core.CodeLinkLoop:          http.StatusInternalServerError,

	core.CodeNoHome:        http.StatusInternalServerError,
	core.CodeNoServer:      http.StatusServiceUnavailable,
	core.CodeServerRunning: http.StatusConflict,
	core.CodeNotSupported:  http.StatusNotImplemented,

	core.CodeOutdated:    http.StatusConflict,
	core.CodeCheckFailed: http.StatusConflict,
}

// Status is the HTTP status of an error code; ok is false for a code the
// table lacks, which then answers 500.
func Status(code string) (status int, ok bool) {
	status, ok = statuses[code]
	return status, ok
}

// Codes of the errors this package declares beside its other files.
func (e *NoServerError) Code() string { return core.CodeNoServer }
func (e *RunningError) Code() string  { return core.CodeServerRunning }

func errNotFound(r *http.Request) error {
	return core.Errorf(core.CodeNotFound, "no such resource: %s", r.URL.Path)
}

// errMethod also sets Allow, which a 405 must carry.
func errMethod(w http.ResponseWriter, r *http.Request, allow []string) error {
	w.Header().Set("Allow", strings.Join(allow, ", "))
	return core.Errorf(core.CodeMethodNotAllowed, "%s is not allowed on %s (allowed: %s)", r.Method, r.URL.Path, strings.Join(allow, ", "))
}

// errorResponse builds the one error shape, {"code","message",…extras},
// with the status of the error's code. A 412 also carries the current ETag
// in its header.
func errorResponse(err error, h http.Header) (int, map[string]any) {
	code := core.ErrorCode(err)
	status, ok := Status(code)
	if !ok {
		status = http.StatusInternalServerError
	}
	body := map[string]any{"code": code, "message": err.Error()}
	maps.Copy(body, core.ErrorExtras(err))
	if tag, ok := body["currentEtag"].(string); ok && code == core.CodeStaleETag {
		h.Set("ETag", tag)
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
		status, buf = http.StatusInternalServerError, *bytes.NewBufferString(fmt.Sprintf(`{"error":{"code":%q,"message":"encode the response"}}`+"\n", core.CodeInternal))
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
