package server

import (
	"net/http"
	"slices"
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/errcode"
	tags "github.com/agentkit/charter/helpers/etag"
)

// Conditional requests (RFC 9110 §13). GET /api/v1/settings has an entity
// tag and evaluates If-Match and If-None-Match itself (with the tag it
// serves; a PATCH under the file's lock). Every other endpoint has none,
// so If-Match names a tag it never has, and If-None-Match: * names the
// representation any endpoint with a GET has.

// taggedPath is the one resource with an entity tag.
const taggedPath = "/api/v1/settings"

// conditionalHeader is a request's value of h, its lines joined as one
// list, and whether it was sent at all.
func conditionalHeader(r *http.Request, h string) (string, bool) {
	v := r.Header.Values(h)
	return strings.TrimSpace(strings.Join(v, ", ")), len(v) > 0
}

// evaluate applies RFC 9110 §13.2.2 (steps 1 and 3) to a resource whose
// current tag is etag ("" when it has none; exists tells whether it has a
// representation at all): 0 to go on, else 304 or 412.
func evaluate(r *http.Request, etag string, exists bool) int {
	var current []string
	if etag != "" {
		current = []string{etag}
	}
	if im, ok := conditionalHeader(r, "If-Match"); ok {
		if !(im == "*" && exists) && !tags.Matches(im, current...) {
			return http.StatusPreconditionFailed
		}
	}
	if inm, ok := conditionalHeader(r, "If-None-Match"); ok {
		if (inm == "*" && exists) || tags.NoneMatches(inm, current...) {
			if r.Method == http.MethodGet || r.Method == http.MethodHead {
				return http.StatusNotModified
			}
			return http.StatusPreconditionFailed
		}
	}
	return 0
}

// untagged evaluates the preconditions of an endpoint without an entity
// tag and answers 304 or 412 itself; false when the request goes on.
func untagged(w http.ResponseWriter, r *http.Request, eps []endpoint) bool {
	exists := slices.ContainsFunc(eps, func(e endpoint) bool { return e.method == http.MethodGet })
	switch evaluate(r, "", exists) {
	case http.StatusNotModified:
		w.WriteHeader(http.StatusNotModified)
	case http.StatusPreconditionFailed:
		if _, ok := conditionalHeader(r, "If-Match"); ok {
			writeError(w, errcode.Errorf(core.CodeStaleETag, "%s has no entity tag, so If-Match cannot match: send the request without If-Match", r.URL.Path))
		} else {
			writeError(w, errcode.Errorf(core.CodeStaleETag, "%s exists, so If-None-Match: * does not hold: send the request without If-None-Match", r.URL.Path))
		}
	default:
		return false
	}
	return true
}
