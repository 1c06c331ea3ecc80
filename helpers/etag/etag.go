// Package etag compares the entity tags of conditional requests (RFC 9110
// §13): the settings store checks a write's If-Match with it, and the HTTP
// server the preconditions of every other endpoint.
package etag

import "strings"

// entityTag is one entity-tag of a list (RFC 9110 §8.8.3): the quoted
// opaque tag, and whether it was written weak (W/"…").
type entityTag struct {
	opaque string
	weak   bool
}

// entityTags reads an If-Match or If-None-Match value (RFC 9110 §13.1.1,
// §13.1.2): one entity-tag or a comma-separated list of them. Text that is
// no entity-tag ends the list.
func entityTags(h string) []entityTag {
	var tags []entityTag
	for {
		h = strings.TrimLeft(h, " \t,")
		if h == "" {
			return tags
		}
		weak := strings.HasPrefix(h, "W/")
		if weak {
			h = h[2:]
		}
		if !strings.HasPrefix(h, `"`) {
			return tags
		}
		end := strings.IndexByte(h[1:], '"')
		if end < 0 {
			return tags
		}
		tags = append(tags, entityTag{h[:end+2], weak})
		h = h[end+2:]
	}
}

// Matches tells whether an If-Match value names one of the current tags,
// with the strong comparison If-Match uses: a weak tag never matches. "*"
// is the caller's: it matches whenever the resource exists.
func Matches(h string, current ...string) bool {
	for _, t := range entityTags(h) {
		for _, c := range current {
			if !t.weak && t.opaque == c {
				return true
			}
		}
	}
	return false
}

// NoneMatches tells whether an If-None-Match value names one of the
// current tags, with the weak comparison If-None-Match uses (RFC 9110
// §13.1.2): W/"x" matches "x". "*" matches any current tag.
func NoneMatches(h string, current ...string) bool {
	if strings.TrimSpace(h) == "*" {
		return len(current) > 0
	}
	for _, t := range entityTags(h) {
		for _, c := range current {
			if t.opaque == c {
				return true
			}
		}
	}
	return false
}
