package fsys

import (
	"path"
	"strings"
)

// PathStyle holds the file-name rules of one operating system. Core does
// its path arithmetic through it rather than through path/filepath so that
// the Windows rules are exercised by tests on every platform.
type PathStyle struct {
	Windows bool
}

// Sep is the preferred separator.
func (s PathStyle) Sep() string {
	if s.Windows {
		return `\`
	}
	return "/"
}

// ListSep separates entries of PATH-like variables.
func (s PathStyle) ListSep() string {
	if s.Windows {
		return ";"
	}
	return ":"
}

// volume returns the length of the leading volume name (`C:` or `\\host\share`).
func (s PathStyle) volume(p string) int {
	if !s.Windows {
		return 0
	}
	if len(p) >= 2 && p[1] == ':' && isLetter(p[0]) {
		return 2
	}
	if len(p) >= 2 && isSlash(p[0]) && isSlash(p[1]) {
		// UNC: \\host\share
		n := 2
		for parts := 0; n < len(p); n++ {
			if isSlash(p[n]) {
				parts++
				if parts == 2 {
					break
				}
			}
		}
		return n
	}
	return 0
}

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
func isSlash(c byte) bool  { return c == '/' || c == '\\' }

// IsAbs reports whether p is absolute. On Windows a path needs a volume and
// a root (`C:\x`, `\\host\share\x`); `\x` alone is drive-relative.
func (s PathStyle) IsAbs(p string) bool {
	if !s.Windows {
		return strings.HasPrefix(p, "/")
	}
	v := s.volume(p)
	if v == 0 {
		return false
	}
	if v > 2 { // UNC is always absolute
		return true
	}
	return len(p) > v && isSlash(p[v])
}

// Clean is filepath.Clean for this style.
func (s PathStyle) Clean(p string) string {
	if !s.Windows {
		return path.Clean(p)
	}
	v := s.volume(p)
	vol, rest := p[:v], strings.ReplaceAll(p[v:], `\`, "/")
	c := path.Clean(rest)
	if rest == "" {
		c = "."
		if v > 0 {
			c = ""
		}
	}
	return strings.ReplaceAll(vol, "/", `\`) + strings.ReplaceAll(c, "/", `\`)
}

// Join joins elements and cleans the result.
func (s PathStyle) Join(elem ...string) string {
	var parts []string
	for _, e := range elem {
		if e != "" {
			parts = append(parts, e)
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return s.Clean(strings.Join(parts, s.Sep()))
}

// Dir returns all but the last element of a cleaned path.
func (s PathStyle) Dir(p string) string {
	v := s.volume(p)
	i := len(p) - 1
	for i >= v && !styleSep(s, p[i]) {
		i--
	}
	return s.Clean(p[:i+1])
}

func styleSep(s PathStyle, c byte) bool {
	if s.Windows {
		return isSlash(c)
	}
	return c == '/'
}

// EqualName compares path text the way the file system does.
func (s PathStyle) EqualName(a, b string) bool {
	if s.Windows {
		return strings.EqualFold(a, b)
	}
	return a == b
}

// Within returns the segments of p below base when p lies strictly inside
// base. Both paths must be clean and absolute.
func (s PathStyle) Within(base, p string) ([]string, bool) {
	if len(p) <= len(base) || !s.EqualName(p[:len(base)], base) {
		return nil, false
	}
	rest := p[len(base):]
	if !styleSep(s, base[len(base)-1]) {
		if !styleSep(s, rest[0]) {
			return nil, false // a sibling such as /home/ab next to /home/a
		}
		rest = rest[1:]
	}
	if rest == "" {
		return nil, false
	}
	return strings.Split(rest, s.Sep()), true
}

// Ancestors lists p and each parent of p up to and including stop, p first.
// It returns nil when p does not lie at or below stop.
func (s PathStyle) Ancestors(p, stop string) []string {
	if s.EqualName(p, stop) {
		return []string{p}
	}
	segs, ok := s.Within(stop, p)
	if !ok {
		return nil
	}
	out := make([]string, 0, len(segs)+1)
	for cur := p; ; cur = s.Dir(cur) {
		out = append(out, cur)
		if s.EqualName(cur, stop) {
			return out
		}
	}
}

// Base is the last element of p, after the last separator of the style.
func (s PathStyle) Base(p string) string {
	d := s.Dir(p)
	return strings.TrimLeft(p[len(d):], `/\`)
}
