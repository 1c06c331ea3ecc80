package server

import (
	"net/http"
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/content"
	"github.com/agentkit/charter/core/errcode"
	"github.com/agentkit/charter/core/session"
)

// contentPrefix is the folder route of one item: /api/v1/content/{kind}/{name}.
const contentPrefix = "/api/v1/content/"

// getContent is every rule, skill, command and subagent in effect here
// (`charter rules list --json` and friends, every kind at once), with the
// writable layers' rules.disabled and skills.disabled for a toggle, which
// writes through PATCH /api/v1/settings.
func (s *Server) getContent(w http.ResponseWriter, r *http.Request) error {
	doc, err := s.sess.Contents(r.Context())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, doc)
	return nil
}

// contentList is one kind's items in effect, `charter rules list --json`'s
// document; ?path= (rules) keeps those that apply to that file, relative
// to the project root or absolute inside it, as the CLI and MCP take it.
type contentList struct {
	Items []session.ContentItem `json:"items"`
}

// getContentItem is one item with its body (`charter rules show NAME
// --json`), or without a name the kind's list. kind is rule, skill,
// command or subagent, or their plurals.
func (s *Server) getContentItem(w http.ResponseWriter, r *http.Request) error {
	rest := strings.TrimPrefix(r.URL.Path, contentPrefix)
	kindName, name, ok := strings.Cut(rest, "/")
	k, known := kindOf(kindName)
	if known && !ok {
		items, err := s.sess.ContentList(r.Context(), k, r.URL.Query().Get("path"))
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, contentList{Items: items})
		return nil
	}
	if !ok || !known || name == "" || strings.Contains(name, "/") {
		return errcode.Errorf(core.CodeNotFound, "no such resource: %s (ask /api/v1/content/{rule|skill|command|subagent}/{name}, or without the name for the list)", r.URL.Path)
	}
	doc, err := s.sess.ContentShow(r.Context(), k, name)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, doc)
	return nil
}

// kindOf reads a kind from a path segment: rule or rules, and so on.
func kindOf(seg string) (content.Kind, bool) {
	for _, k := range session.ContentKinds() {
		if seg == string(k) || seg == k.Dir() || seg == string(k)+"s" {
			return k, true
		}
	}
	return "", false
}
