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
	alts, ok := expandBraces(pattern, maxAlternatives)
	if !ok {
		return false // a hostile pattern of braces in braces: malformed
	}
	for _, p := range alts {
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

// matchSegments matches pattern segments against path segments. Each
// (pattern, path) position is decided once, so a repository's rule with
// many ** segments costs at most len(pat)×len(segs) steps, never an
// exponential backtrack.
func matchSegments(pat, segs []string) bool {
	memo := make([]int8, (len(pat)+1)*(len(segs)+1)) // 0 unknown, 1 no, 2 yes
	var match func(i, j int) bool
	match = func(i, j int) bool {
		k := i*(len(segs)+1) + j
		if memo[k] != 0 {
			return memo[k] == 2
		}
		var ok bool
		switch {
		case i == len(pat):
			ok = j == len(segs)
		case pat[i] == "**":
			ok = match(i+1, j) || (j < len(segs) && match(i, j+1))
		default:
			ok = j < len(segs) && matchSegment(pat[i], segs[j]) && match(i+1, j+1)
		}
		memo[k] = 1
		if ok {
			memo[k] = 2
		}
		return ok
	}
	return match(0, 0)
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

// maxAlternatives bounds what one pattern's braces expand to: ten
// `{a,b}` in a row would otherwise make a thousand patterns, thirty a
// billion.
const maxAlternatives = 256

// expandBraces turns `a{b,c{d,e}}` into ab, acd, ace, at most limit of
// them (false beyond). An unbalanced or escaped brace is literal.
func expandBraces(p string, limit int) ([]string, bool) {
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
				more, ok := expandBraces(p[:open]+alt+p[i+1:], limit-len(out))
				if !ok {
					return nil, false
				}
				out = append(out, more...)
				if len(out) > limit {
					return nil, false
				}
			}
			return out, true
		}
	}
	return []string{p}, limit >= 1
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
