package core

import (
	"io/fs"
	"strings"
)

// LookPath finds a program name on the PATH charter was given, through the
// system's file system: the first regular file that is executable (on
// Windows, the name with each PATHEXT extension when it has none). An empty
// PATH entry means ".", which charter does not search. "" when none is.
func (s *System) LookPath(name string) string { return s.LookPathIn(name, nil) }

// LookPathIn is LookPath; in, when not nil, gets the directories searched and
// the candidates present in them (a cache keyed on them sees a change).
func (s *System) LookPathIn(name string, in *[]string) string {
	names := []string{name}
	if s.Paths.Windows && !strings.Contains(name, ".") { // no extension of its own
		names = names[:0]
		for _, e := range s.Vars.Array("PATHEXT", []string{".COM", ".EXE", ".BAT", ".CMD"}, ";") {
			if e != "" {
				names = append(names, name+strings.ToLower(e))
			}
		}
	}
	note := func(p string) {
		if in != nil {
			*in = append(*in, p)
		}
	}
	for _, dir := range s.Vars.Array("PATH", nil, s.Paths.ListSep()) {
		if dir == "" {
			continue
		}
		note(dir)
		for _, n := range names {
			p := s.Paths.Join(dir, n)
			fi, err := s.Fs.Stat(p)
			if err == nil {
				note(p) // its mode or target may change in place
			}
			if err == nil && s.executable(fi) {
				return p
			}
		}
	}
	return ""
}

func (s *System) executable(fi fs.FileInfo) bool {
	if !fi.Mode().IsRegular() {
		return false
	}
	return s.Paths.Windows || fi.Mode().Perm()&0o111 != 0
}
