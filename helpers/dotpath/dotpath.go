package dotpath

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// Cache bounds: at most cacheCap paths of at most maxCachedLen bytes each,
// so the cache holds well under a few MiB whatever callers pass.
const (
	cacheCap     = 4096
	maxCachedLen = 256
)

// cache maps a valid path to its segments. sync.Map keeps the hit path
// lock-free and allocation-free; when it fills up it is cleared whole,
// which is cheap, bounded, and needs no bookkeeping on hits.
var cache struct {
	m sync.Map // string → []string, never modified after insertion
	n atomic.Int64
}

// Segments splits path on '.'. "" gives an empty slice. A leading, trailing
// or doubled dot is an error, checked in that order, so "." and ".a." report
// a leading dot and "a.." a trailing one. The result is the caller's own
// copy.
func Segments(path string) ([]string, error) {
	segs, err := Lookup(path)
	if err != nil {
		return nil, err
	}
	return append([]string{}, segs...), nil
}

// Lookup is Segments without the copy: on a cache hit it costs no
// allocation. The returned slice is shared with the cache and every other
// caller, so it must be treated as read-only.
func Lookup(path string) ([]string, error) {
	if path == "" {
		return []string{}, nil
	}
	if v, ok := cache.m.Load(path); ok {
		return v.([]string), nil
	}
	if len(path) > maxCachedLen {
		return parse(path)
	}
	// A private copy, so the cache never pins a caller's larger string.
	path = strings.Clone(path)
	segs, err := parse(path)
	if err != nil {
		return nil, err
	}
	if cache.n.Add(1) > cacheCap {
		cache.m.Clear()
		cache.n.Store(1)
	}
	// Another goroutine may have stored the same path; either copy is fine.
	cache.m.Store(path, segs)
	return segs, nil
}

// parse splits a path without the cache.
func parse(path string) ([]string, error) {
	switch {
	case path == "":
		return []string{}, nil
	case path[0] == '.':
		return nil, syntaxErr("leading", path)
	case path[len(path)-1] == '.':
		return nil, syntaxErr("trailing", path)
	case strings.Contains(path, ".."):
		return nil, syntaxErr("double", path)
	}
	return strings.Split(path, "."), nil
}

func syntaxErr(kind, path string) error {
	return fmt.Errorf("invalid dot-path syntax: %s dot in %q", kind, path)
}

// BuildPrefix joins prefix and segment with a dot; an empty prefix gives the
// segment alone. Integer segments are written in decimal; any other type is
// formatted with fmt's %v.
func BuildPrefix(prefix string, segment any) string {
	var s string
	switch v := segment.(type) {
	case string:
		s = v
	case int:
		s = strconv.Itoa(v)
	case int8:
		s = strconv.FormatInt(int64(v), 10)
	case int16:
		s = strconv.FormatInt(int64(v), 10)
	case int32:
		s = strconv.FormatInt(int64(v), 10)
	case int64:
		s = strconv.FormatInt(v, 10)
	case uint:
		s = strconv.FormatUint(uint64(v), 10)
	case uint8:
		s = strconv.FormatUint(uint64(v), 10)
	case uint16:
		s = strconv.FormatUint(uint64(v), 10)
	case uint32:
		s = strconv.FormatUint(uint64(v), 10)
	case uint64:
		s = strconv.FormatUint(v, 10)
	default:
		s = fmt.Sprint(v)
	}
	if prefix == "" {
		return s
	}
	return prefix + "." + s
}

// IsWildcard reports whether segment is exactly "*".
func IsWildcard(segment string) bool { return segment == "*" }

// ContainsWildcard reports whether some segment of path is exactly "*"
// (the reference looks for the character anywhere, so "a*b" would count
// there; here it does not). A malformed path gives Segments' error.
func ContainsWildcard(path string) (bool, error) {
	segs, err := Lookup(path)
	if err != nil {
		return false, err
	}
	for _, s := range segs {
		if IsWildcard(s) {
			return true, nil
		}
	}
	return false, nil
}
