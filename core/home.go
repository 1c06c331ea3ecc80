package core

import (
	"fmt"
	"strings"
)

// Home returns the user's home directory.
func (s *System) Home() (string, error) {
	h, err := s.homeText()
	if err != nil {
		return "", err
	}
	return s.Normalize(h)
}

// homeText is $HOME as set, or on Windows %USERPROFILE% when HOME is not.
func (s *System) homeText() (string, error) {
	h := strings.TrimSpace(s.Getenv("HOME"))
	if h == "" && s.Paths.Windows {
		h = strings.TrimSpace(s.Getenv("USERPROFILE"))
	}
	if h == "" {
		return "", ErrNoHome
	}
	return h, nil
}

// Normalize trims p, expands a leading ~, makes it absolute and cleans it.
// Symbolic links are kept: the companion relies on the exact text.
func (s *System) Normalize(p string) (string, error) {
	p = strings.TrimSpace(p)
	if p == "" {
		return "", Errorf(CodeUsage, "empty path")
	}
	if p == "~" || strings.HasPrefix(p, "~/") || (s.Paths.Windows && strings.HasPrefix(p, `~\`)) {
		home, err := s.homeText()
		if err != nil {
			return "", fmt.Errorf("expand %q: %w", p, err)
		}
		p = home + s.Paths.Sep() + p[1:]
	}
	if !s.Paths.IsAbs(p) {
		wd, err := s.Getwd()
		if err != nil {
			return "", fmt.Errorf("make %q absolute: %w", p, err)
		}
		p = s.Paths.Join(wd, p)
	}
	return s.Paths.Clean(p), nil
}
