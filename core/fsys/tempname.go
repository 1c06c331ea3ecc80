package fsys

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Every temporary file and every staged folder charter makes is named
// ".charter-tmp-<name>-<random>": <name> is the entry it becomes in the
// same directory, <random> 1 to 16 lowercase hex digits (8 from charter's
// own writes; the portable walk's os.CreateTemp gives decimal ones). The
// prefix is charter's own, so a user's ".rules.tmp-backup" or ".x.tmp-1"
// is never taken for one and never removed. A name is read from the
// right: the random part holds no "-", so ".charter-tmp-a-b-0badc0de"
// belongs to "a-b", never to "a".
//
// This file is the one place that writes or reads the pattern.
const TempPrefix = ".charter-tmp-"

// maxRandom is the longest random part read as one (a uint64 in hex).
const maxRandom = 16

// tempPrefix is what every temporary name of name starts with.
func tempPrefix(name string) string { return TempPrefix + name + "-" }

// TempName is the temporary name of name with the random part r: for tests
// that plant what a killed run leaves.
func TempName(name string, r uint32) string { return fmt.Sprintf("%s%08x", tempPrefix(name), r) }

// NewTempName is a fresh temporary name of name; the caller creates it
// exclusively and tries another when it exists.
func NewTempName(name string) string { return TempName(name, rand.Uint32()) }

// TempOf returns the name whose temporary file or staged folder entry is,
// and whether entry is one of charter's temporary names at all.
func TempOf(entry string) (name string, ok bool) {
	rest, ok := strings.CutPrefix(entry, TempPrefix)
	if !ok {
		return "", false
	}
	i := strings.LastIndexByte(rest, '-')
	if i < 1 || !isRandom(rest[i+1:]) {
		return "", false
	}
	return rest[:i], true
}

// isTempOf reports whether entry is a temporary name of name.
func isTempOf(entry, name string) bool {
	n, ok := TempOf(entry)
	return ok && n == name
}

func isRandom(s string) bool {
	if s == "" || len(s) > maxRandom {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
