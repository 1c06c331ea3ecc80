package content

import (
	"path"
	"strings"
)

// Rule globs are matched the way the agents that scope rules by path read
// them (Claude Code's `paths`, Cursor's `globs`, Copilot's `applyTo`, all
// minimatch/picomatch-style): a pattern is anchored at the project root
// and matched against the whole slash-separated path; `*` and `?` stay
// inside one segment, `[a-z]` and `[!a-z]` are classes, `{a,b}` is either,
// and a segment that is exactly `**` matches zero or more segments.
// Leading dots are not special (VS Code's glob, which Copilot uses, lets
// `*` match `.env`). A malformed pattern matches nothing.
//
// Written here rather than taken from a module: the dialect is a few
// dozen lines over path.Match, and owning it keeps the documented
// semantics in one reviewed place.

// GlobMatch reports whether the project-relative, slash-separated path rel
// matches pattern.
func GlobMatch(pattern, rel string) bool {
	rel = strings.TrimPrefix(path.Clean("/"+rel), "/")
	for _, p := range expandBraces(pattern) {
		p = strings.TrimPrefix(p, "./")
		p = strings.TrimPrefix(p, "/")
		if matchSegments(strings.Split(p, "/"), strings.Split(rel, "/")) {
			return true
		}
	}
	return false
}

// AppliesTo reports whether a rule applies to the project-relative path
// rel: a rule without globs always does.
func (it *Item) AppliesTo(rel string) bool {
	if len(it.Globs) == 0 {
		return true
	}
	for _, g := range it.Globs {
		if GlobMatch(g, rel) {
			return true
		}
	}
	return false
}

func matchSegments(pat, segs []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for len(pat) > 1 && pat[1] == "**" {
				pat = pat[1:]
			}
			for i := 0; i <= len(segs); i++ {
				if matchSegments(pat[1:], segs[i:]) {
					return true
				}
			}
			return false
		}
		if len(segs) == 0 || !matchSegment(pat[0], segs[0]) {
			return false
		}
		pat, segs = pat[1:], segs[1:]
	}
	return len(segs) == 0
}

// matchSegment is path.Match for one segment, with `[!…]` as `[^…]` and a
// `**` inside a segment (`a**b`) as `*`.
func matchSegment(pat, seg string) bool {
	pat = strings.ReplaceAll(pat, "[!", "[^")
	for strings.Contains(pat, "**") {
		pat = strings.ReplaceAll(pat, "**", "*")
	}
	ok, err := path.Match(pat, seg)
	return ok && err == nil
}

// expandBraces turns `a{b,c{d,e}}` into ab, acd, ace. An unbalanced or
// escaped brace is literal.
func expandBraces(p string) []string {
	depth, open := 0, -1
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '{':
			if depth == 0 {
				open = i
			}
			depth++
		case '}':
			if depth == 0 {
				continue
			}
			depth--
			if depth > 0 {
				continue
			}
			var out []string
			for _, alt := range splitTop(p[open+1 : i]) {
				out = append(out, expandBraces(p[:open]+alt+p[i+1:])...)
			}
			return out
		}
	}
	return []string{p}
}

// splitTop splits s at the commas outside nested braces.
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '{':
			depth++
		case '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}
