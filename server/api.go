package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/errcode"
	"github.com/agentkit/charter/core/session"
	"github.com/agentkit/charter/core/settings"
)

// handler serves one endpoint; a returned error becomes the error response.
type handler func(w http.ResponseWriter, r *http.Request) error

type endpoint struct {
	method string
	fn     handler
}

// api is the route table of /api/v1.
func (s *Server) api() map[string][]endpoint {
	return map[string][]endpoint{
		"/api/v1/ping":                            {{http.MethodGet, s.ping}},
		"/api/v1/wizard/detect-agent-switch":      {{http.MethodGet, s.detect}},
		"/api/v1/wizard/dismiss-recommendation":   {{http.MethodPost, s.dismiss}},
		"/api/v1/wizard/undismiss-recommendation": {{http.MethodPost, s.undismiss}},
		"/api/v1/settings":                        {{http.MethodGet, s.getSettings}, {http.MethodPatch, s.patchSettings}},
		"/api/v1/settings/schema":                 {{http.MethodGet, s.schema}},
		"/api/v1/apply":                           {{http.MethodGet, s.getApply}, {http.MethodPost, s.postApply}},
		"/api/v1/gates":                           {{http.MethodGet, s.getGates}},
		"/api/v1/gates/run":                       {{http.MethodPost, s.runGates}},
		"/api/v1/content":                         {{http.MethodGet, s.getContent}},
		contentPrefix:                             {{http.MethodGet, s.getContentItem}},
		"/api/v1/sources":                         {{http.MethodGet, s.getSources}},
		"/api/v1/governance":                      {{http.MethodGet, s.getGovernance}},
		"/api/v1/trust":                           {{http.MethodGet, s.getTrust}, {http.MethodPost, s.postTrust}, {http.MethodDelete, s.deleteTrust}},
		shutdownPath:                              {{http.MethodPost, s.shutdown}},
	}
}

// ping is the session's ping document, read per request: the policy
// file and the trust state change with the files.
func (s *Server) ping(w http.ResponseWriter, r *http.Request) error {
	doc, err := s.sess.Ping(r.Context())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, doc)
	return nil
}

// detect answers from a cache keyed by PATH and PATHEXT and checked, on
// every request, against the identity of every path the detection read:
// the PATH directories (adding, removing or renaming a binary changes the
// directory's mtime), the candidates found in them (a chmod changes their
// mode), the package.json files tried, the companion home and the
// dismissals file. So a binary dropped into a PATH directory is seen by the
// very next request.
func (s *Server) detect(w http.ResponseWriter, r *http.Request) error {
	sys := s.cfg.Sys
	key := sys.Getenv("PATH") // no copy per request where there is no PATHEXT
	if ext := sys.Getenv("PATHEXT"); ext != "" {
		key += "\x00" + ext
	}
	doc, err := s.detectCache.get(sys.Fs, key, func() ([]byte, []string, error) {
		d, in, err := s.sess.DetectInputs(r.Context())
		if err != nil {
			return nil, nil, err
		}
		doc, err := encodeJSON(d)
		return doc, in, err
	})
	if err != nil {
		return err
	}
	writeRaw(w, http.StatusOK, doc)
	return nil
}

func (s *Server) dismiss(w http.ResponseWriter, r *http.Request) error {
	return s.dismissal(w, r, false)
}

// undismiss shows a recommendation again, as `charter dismiss --undo` does.
func (s *Server) undismiss(w http.ResponseWriter, r *http.Request) error {
	return s.dismissal(w, r, true)
}

// dismissal reads the body both dismissal endpoints take, {"id"} and
// "confirmSharedWrite", and answers with every id still dismissed.
func (s *Server) dismissal(w http.ResponseWriter, r *http.Request, undo bool) error {
	var req struct {
		ID                 *string `json:"id"`
		ConfirmSharedWrite bool    `json:"confirmSharedWrite"`
	}
	if err := decode(r, &req); err != nil {
		return err
	}
	if req.ID == nil {
		return errcode.Errorf(core.CodeInvalidRequest, `missing "id": the only id is %q`, core.CompanionRecommendationID)
	}
	doc, err := s.sess.Dismiss(r.Context(), *req.ID, undo, req.ConfirmSharedWrite)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, doc)
	return nil
}

// writeSettings answers GET and PATCH /api/v1/settings: the settings
// document, with the ETag to send back in If-Match.
func writeSettings(w http.ResponseWriter, doc session.SettingsDoc) {
	w.Header().Set("ETag", doc.ETag)
	writeJSON(w, http.StatusOK, doc)
}

// encoded is a settings document encoded once per version of its files.
type encoded struct {
	etag string
	doc  []byte
}

// getSettings serves the document cached for the current identity of every
// layer file and the policy file (see filesCache): no copy, no encoding per
// request, and a write by any process is seen by the next request.
func (s *Server) getSettings(w http.ResponseWriter, r *http.Request) error {
	e, err := s.settingsCache.get(s.cfg.Sys.Fs, "", func() (encoded, []string, error) {
		doc, err := s.sess.SettingsList(r.Context(), "")
		if err != nil {
			return encoded{}, nil, err
		}
		b, err := encodeJSON(doc)
		return encoded{doc.ETag, b}, doc.Files, err
	})
	if err != nil {
		return err
	}
	w.Header().Set("ETag", e.etag)
	switch evaluate(r, e.etag, true) {
	case http.StatusNotModified:
		w.WriteHeader(http.StatusNotModified)
		return nil
	case http.StatusPreconditionFailed:
		return &settings.StaleError{Current: e.etag}
	}
	writeRaw(w, http.StatusOK, e.doc)
	return nil
}

// patchSettings applies {"set":{key:value},"unset":[key],"base":{key:value},
// "layer","confirmSharedWrite"} to the layer's file (scope by default) under
// one of two preconditions: If-Match, the layer's own ETag (layers[].etag)
// or the whole document's, or base, the value read of every key set or
// unset (SPEC §8), checked under the file's lock so that writers of
// different keys never conflict. If-None-Match is checked there too: a
// PATCH that names the current version (or *) is refused with 412. Every
// bad key is reported at once.
func (s *Server) patchSettings(w http.ResponseWriter, r *http.Request) error {
	ifMatch, _ := conditionalHeader(r, "If-Match")
	ifNoneMatch, _ := conditionalHeader(r, "If-None-Match")
	var req struct {
		Set                map[string]json.RawMessage `json:"set"`
		Unset              []string                   `json:"unset"`
		Layer              string                     `json:"layer"`
		Base               map[string]json.RawMessage `json:"base"`
		ConfirmSharedWrite bool                       `json:"confirmSharedWrite"`
	}
	if err := decode(r, &req); err != nil {
		return err
	}
	if ifMatch == "" && req.Base == nil {
		return errcode.Errorf(core.CodePreconditionRequired, `a precondition is required: send "base" with the value read of every key you change, or If-Match with the ETag of GET /api/v1/settings`)
	}
	if ifMatch == "*" {
		ifMatch = "" // any current version will do
	}
	doc, err := s.sess.PatchSettings(r.Context(), session.SettingsPatch{
		Layer: req.Layer, Set: req.Set, Unset: req.Unset, Base: req.Base,
		IfMatch: ifMatch, IfNoneMatch: ifNoneMatch, Confirm: req.ConfirmSharedWrite,
		Batch: s.writes.write,
	})
	if err != nil {
		return err
	}
	writeSettings(w, doc)
	return nil
}

func (s *Server) schema(w http.ResponseWriter, r *http.Request) error {
	writeJSON(w, http.StatusOK, s.sess.SettingsSchema())
	return nil
}

// shutdown answers first; Serve then stops once this request is done.
// shutdown stops the server. A beacon (token in the query, sent when the
// page goes away) stops it only if the page does not come back.
func (s *Server) shutdown(w http.ResponseWriter, r *http.Request) error {
	writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
	if isBeacon(r) {
		s.stopAfterGrace()
		return nil
	}
	s.requestStop()
	return nil
}

// decode reads a JSON body into v. Malformed JSON is 400; JSON of the wrong
// shape (unknown fields, wrong types) is 422.
func decode(r *http.Request, v any) error {
	data, err := io.ReadAll(r.Body)
	var mb *http.MaxBytesError
	if errors.As(err, &mb) {
		return errcode.Errorf(core.CodePayloadTooLarge, "request body larger than %d bytes", mb.Limit)
	}
	if err != nil { // a body cut short: what arrived is no JSON document
		return errcode.Errorf(core.CodeInvalidJSON, "read the request body: %v", err)
	}
	if !json.Valid(data) {
		return errcode.Errorf(core.CodeInvalidJSON, "request body is not valid JSON")
	}
	if b := bytes.TrimSpace(data); b[0] != '{' {
		// null decodes into a struct as nothing at all: not a request.
		return errcode.Errorf(core.CodeInvalidRequest, "the request body must be a JSON object, not %s", jsonKind(b))
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return errcode.Errorf(core.CodeInvalidRequest, "%s", shapeMessage(err))
	}
	return nil
}

// shapeMessage says what is wrong with the body in JSON's words, never in
// Go's (no Go type names).
func shapeMessage(err error) string {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		if msg := strings.TrimPrefix(err.Error(), "json: "); strings.HasPrefix(msg, "unknown field ") {
			return msg
		}
		return "the request body does not have the expected fields and types"
	}
	want := "a different kind of value"
	switch te.Type.Kind() {
	case reflect.Map, reflect.Struct:
		want = "an object"
	case reflect.Slice, reflect.Array:
		want = "an array"
	case reflect.Bool:
		want = "true or false"
	case reflect.String:
		want = "a string"
	case reflect.Int, reflect.Int64, reflect.Float64:
		want = "a number"
	}
	got := map[string]string{"bool": "true or false", "number": "a number", "string": "a string", "array": "an array", "object": "an object"}[te.Value]
	if got == "" {
		got = te.Value
	}
	if te.Field == "" {
		return fmt.Sprintf("the request body must be %s, not %s", want, got)
	}
	return fmt.Sprintf("%q must be %s, not %s", te.Field, want, got)
}

// jsonKind names the kind of a valid JSON document.
func jsonKind(b []byte) string {
	switch b[0] {
	case 'n':
		return "null"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "true or false"
	}
	return "a number"
}
