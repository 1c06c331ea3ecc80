package settings

import "strings"

// ifMatchTags reads an If-Match value (RFC 9110 §13.1.1): one entity-tag
// or a comma-separated list of them. Only strong tags are returned: If-Match
// uses the strong comparison, so a weak tag (W/"…") never matches. Text
// that is no entity-tag ends the list.
func ifMatchTags(h string) []string {
	var tags []string
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
		if !weak {
			tags = append(tags, h[:end+2])
		}
		h = h[end+2:]
	}
}

// ifMatches tells whether an If-Match value names one of the current tags.
func ifMatches(h string, current ...string) bool {
	for _, t := range ifMatchTags(h) {
		for _, c := range current {
			if t == c {
				return true
			}
		}
	}
	return false
}
