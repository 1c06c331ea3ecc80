package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"

	"github.com/agentkit/charter/core"
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
		"/api/v1/ping":                          {{http.MethodGet, s.ping}},
		"/api/v1/wizard/detect-agent-switch":    {{http.MethodGet, s.detect}},
		"/api/v1/wizard/dismiss-recommendation": {{http.MethodPost, s.dismiss}},
		"/api/v1/settings":                      {{http.MethodGet, s.getSettings}, {http.MethodPatch, s.patchSettings}},
		"/api/v1/settings/schema":               {{http.MethodGet, s.schema}},
		"/api/v1/apply":                         {{http.MethodGet, s.getApply}, {http.MethodPost, s.postApply}},
		"/api/v1/gates/run":                     {{http.MethodPost, s.runGates}},
		shutdownPath:                            {{http.MethodPost, s.shutdown}},
	}
}

// ping answers with a document fixed for the life of the process (the
// scope and profile come from its start), encoded once.
func (s *Server) ping(w http.ResponseWriter, r *http.Request) error {
	writeRaw(w, http.StatusOK, s.pingDoc)
	return nil
}

func (s *Server) detect(w http.ResponseWriter, r *http.Request) error {
	d, err := s.cfg.Sys.DetectCompanion()
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, d)
	return nil
}

func (s *Server) dismiss(w http.ResponseWriter, r *http.Request) error {
	var req struct {
		ID                 *string `json:"id"`
		ConfirmSharedWrite bool    `json:"confirmSharedWrite"`
	}
	if err := decode(r, &req); err != nil {
		return err
	}
	if req.ID == nil {
		return core.Errorf(core.CodeInvalidRequest, `missing "id": the only id is %q`, core.CompanionRecommendationID)
	}
	ids, err := s.cfg.Sys.Dismiss(*req.ID, req.ConfirmSharedWrite)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, core.DismissDoc{OK: true, Dismissed: ids})
	return nil
}

// writeSettings answers GET and PATCH /api/v1/settings: the settings
// document, with the ETag to send back in If-Match.
func writeSettings(w http.ResponseWriter, st *settings.Store, snap *settings.Snapshot) {
	w.Header().Set("ETag", snap.ETag)
	writeJSON(w, http.StatusOK, st.Doc(snap))
}

// store is the layered store of this server: its scope and project, and
// the policy as it is now (read on every request: an administrator's change
// applies at once, and a malformed policy fails every request).
func (s *Server) store() (*settings.Store, error) {
	policy, err := settings.LoadPolicy(s.cfg.Sys)
	if err != nil {
		return nil, err
	}
	project := s.cfg.Project
	if project == nil && s.cfg.ProjectRoot != "" {
		if project, err = s.cfg.Sys.ProjectAt(s.cfg.ProjectRoot, core.SourceRepository); err != nil {
			return nil, err
		}
	}
	return settings.Open(s.cfg.Sys, s.cfg.Scope, project, policy), nil
}

func (s *Server) getSettings(w http.ResponseWriter, r *http.Request) error {
	st, err := s.store()
	if err != nil {
		return err
	}
	snap, err := st.Read()
	if err != nil {
		return err
	}
	writeSettings(w, st, snap)
	return nil
}

// patchSettings applies {"set":{key:value},"unset":[key],"layer",
// "confirmSharedWrite"} to the layer's file (scope by default) if the
// If-Match ETag still holds: the layer's own (layers[].etag) or the whole
// document's. Every bad key is reported at once.
func (s *Server) patchSettings(w http.ResponseWriter, r *http.Request) error {
	ifMatch := strings.TrimSpace(r.Header.Get("If-Match"))
	if ifMatch == "" {
		return core.Errorf(core.CodePreconditionRequired, "If-Match is required: send the ETag of GET /api/v1/settings")
	}
	if ifMatch == "*" {
		ifMatch = "" // any current version will do
	}
	var req struct {
		Set                map[string]json.RawMessage `json:"set"`
		Unset              []string                   `json:"unset"`
		Layer              string                     `json:"layer"`
		ConfirmSharedWrite bool                       `json:"confirmSharedWrite"`
	}
	if err := decode(r, &req); err != nil {
		return err
	}
	st, err := s.store()
	if err != nil {
		return err
	}
	if st, err = st.Target(req.Layer); err != nil {
		return err
	}
	u, err := settings.Patch(req.Set, req.Unset, settings.ParseJSON)
	if err != nil {
		return err
	}
	u.ConfirmShared, u.IfMatch = req.ConfirmSharedWrite, ifMatch
	snap, err := st.Write(u)
	if err != nil {
		return err
	}
	writeSettings(w, st, snap)
	return nil
}

func (s *Server) schema(w http.ResponseWriter, r *http.Request) error {
	writeJSON(w, http.StatusOK, settings.JSONSchema())
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
		return core.Errorf(core.CodePayloadTooLarge, "request body larger than %d bytes", mb.Limit)
	}
	if err != nil { // a body cut short: what arrived is no JSON document
		return core.Errorf(core.CodeInvalidJSON, "read the request body: %v", err)
	}
	if !json.Valid(data) {
		return core.Errorf(core.CodeInvalidJSON, "request body is not valid JSON")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return core.Errorf(core.CodeInvalidRequest, "%s", strings.TrimPrefix(err.Error(), "json: "))
	}
	return nil
}
