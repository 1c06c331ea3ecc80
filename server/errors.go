package server

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/errcode"
	"github.com/agentkit/charter/helpers/jsondoc"
)

// Status is the one place where error codes meet HTTP: every code of
// core's vocabulary is listed here, grouped by its status, and nothing else
// picks one. ok is false for a code it lacks, which answers 500.
func Status(code string) (_ int, ok bool) {
	switch code {
	case core.CodeInvalidJSON:
		return http.StatusBadRequest, true
	case core.CodeUnauthorized:
		return http.StatusUnauthorized, true
	case core.CodeForbiddenOrigin:
		return http.StatusForbidden, true
	case core.CodeNotFound:
		return http.StatusNotFound, true
	case core.CodeMethodNotAllowed:
		return http.StatusMethodNotAllowed, true
	case core.CodeSharedWrite, core.CodeCancelled, core.CodeReadOnlyFile, core.CodeGateRunning,
		core.CodeServerRunning, core.CodeScopeExists, core.CodeOutdated, core.CodeCheckFailed,
		// broken markers are the user's file: fix it and send again
		core.CodeMalformedMarkers, core.CodeMalformedMCPJSON, core.CodeMalformedAgentSettings,
		core.CodeChangedDuringWrite, core.CodeItemExists,
		// a source the user wrote is broken: fix it and send again
		core.CodeMalformedContent,
		// the repository's own files or commands, not the request, are the problem
		core.CodeOutsideProject, core.CodeTooLarge, core.CodeForeignOwner, core.CodeUntrusted,
		core.CodeLibraryTooLarge,
		core.CodeGitDir, core.CodeLinkedTarget, core.CodeDanglingLink,
		// a projected file a person made or edited: move it or --force
		core.CodeProjectionConflict:
		return http.StatusConflict, true
	case core.CodeStaleETag:
		return http.StatusPreconditionFailed, true
	case core.CodePayloadTooLarge:
		return http.StatusRequestEntityTooLarge, true
	case core.CodeMisdirectedRequest:
		return http.StatusMisdirectedRequest, true
	case core.CodeUsage, core.CodeInvalidRequest, core.CodeInvalidValue, core.CodeUnknownKey,
		core.CodeUnknownID, core.CodeUnknownAgent, core.CodeNoAgent, core.CodeScalarParent,
		core.CodeLockedByPolicy:
		return http.StatusUnprocessableEntity, true
	case core.CodePreconditionRequired:
		return http.StatusPreconditionRequired, true
	case core.CodeInternal, core.CodeNoHome, core.CodeLinkLoop, core.CodeNotAbsolute, core.CodeNotWritable, core.CodeNoBrowser,
		// the server's own files cannot be written where they belong
		core.CodeIsDirectory, core.CodeNotDirectory, core.CodeNotRegularFile,
		// a broken settings file is the server's own state gone wrong
		core.CodeMalformedSettings, core.CodeMalformedPolicy, core.CodeMalformedReport:
		return http.StatusInternalServerError, true
	case core.CodeNotSupported:
		return http.StatusNotImplemented, true
	case core.CodeNoServer:
		return http.StatusServiceUnavailable, true
	}
	return http.StatusInternalServerError, false
}

// Codes of the errors this package declares beside its other files.
func (e *NoServerError) Code() string { return core.CodeNoServer }
func (e *RunningError) Code() string  { return core.CodeServerRunning }

func errNotFound(r *http.Request) error {
	return errcode.Errorf(core.CodeNotFound, "no such resource: %s", r.URL.Path)
}

// errMethod also sets Allow, which a 405 must carry.
func errMethod(w http.ResponseWriter, r *http.Request, allow []string) error {
	w.Header().Set("Allow", strings.Join(allow, ", "))
	return errcode.Errorf(core.CodeMethodNotAllowed, "%s is not allowed on %s (allowed: %s)", r.Method, r.URL.Path, strings.Join(allow, ", "))
}

// errorResponse answers with core's one error document, with the status of
// the error's code. A 412 also carries the current ETag in its header.
// message is err's text for people.
func errorResponse(w http.ResponseWriter, err error, message string) {
	body := errcode.NewBody(err, message)
	status, _ := Status(body.Code)
	if tag, ok := body.Extras["currentEtag"].(string); ok && body.Code == core.CodeStaleETag {
		w.Header().Set("ETag", tag)
	}
	writeJSON(w, status, body.Document())
}

// writeError answers with err, whose text charter wrote itself.
func writeError(w http.ResponseWriter, err error) { errorResponse(w, err, err.Error()) }

// writeError answers with a handler's err, whose operating-system part is
// said in the same words as the CLI's (System.ErrorMessage).
func (s *Server) writeError(w http.ResponseWriter, err error) {
	errorResponse(w, err, s.cfg.Sys.ErrorMessage(err))
}

// encodeJSON encodes v as writeJSON does.
func encodeJSON(v any) ([]byte, error) {
	data, err := jsondoc.Encode(v, "", "")
	if err != nil {
		return nil, fmt.Errorf("encode the response: %w", err)
	}
	return data, nil
}

// writeJSON writes one document. HTML escaping is off, as in the CLI: paths
// and commands should read as they are.
func writeJSON(w http.ResponseWriter, status int, v any) {
	doc, err := jsondoc.Encode(v, "", "")
	if err != nil {
		// Two strings always encode.
		e := errcode.Errorf(core.CodeInternal, "encode the response")
		status = http.StatusInternalServerError
		doc, _ = jsondoc.Encode(errcode.NewBody(e, e.Error()).Document(), "", "")
	}
	writeRaw(w, status, doc)
}

// writeRaw writes a JSON document already encoded.
func writeRaw(w http.ResponseWriter, status int, doc []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	w.Write(doc) // the status line is out: a failure here can only be seen by the client
}
