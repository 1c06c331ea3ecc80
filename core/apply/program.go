package apply

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/goexe"
)

// Program is the word a hook entry runs charter by wherever PATH finds it:
// in every project file (committed, read on other machines) and at user
// level when PATH's charter is the running binary (SPEC §10).
const Program = "charter"

// Module is charter's Go module: a binary whose build info names it as its
// main module is charter.
const Module = "github.com/agentkit/charter"

// InstallHint tells how to put charter on PATH.
const InstallHint = "install charter (`go install ./cmd/charter`) and make sure PATH finds it"

// UserProgram is how a user-level registration of what (the MCP server
// of --print-config) names charter: as a user-level hook entry does.
func UserProgram(sys *core.System, what string) (string, error) {
	return program(sys, LevelUser, what)
}

func hookProgram(sys *core.System, level string) (string, error) {
	return program(sys, level, "the Stop hook entry")
}

// program is the program of the hook entry at level (SPEC §10): the
// bare word in a project file, and at user level when the charter PATH
// finds is this binary (the same file); otherwise this binary's path as
// PATH or the command line named it. A binary in Go's build cache (`go
// run`) is gone after the next clean, so the bare word stands in for it,
// with a warning.
func program(sys *core.System, level, what string) (string, error) {
	if level == LevelProject {
		return Program, nil
	}
	exe, err := runningBinary(sys)
	if err != nil {
		return "", err
	}
	if inBuildCache(sys, exe) {
		if sys.Warn != nil {
			sys.Warn(fmt.Sprintf("charter runs from Go's build cache (go run?): %s says %q, which works once you %s", what, Program, InstallHint))
		}
		return Program, nil
	}
	if p := sys.LookPath(Program); p != "" && sameFile(sys, p, exe) {
		return Program, nil
	}
	// The path as PATH or the command line named it, rather than the one
	// links resolve to: /opt/homebrew/bin/charter outlives an upgrade,
	// its Cellar target does not.
	if arg := os.Args[0]; arg != "" && sys.Executable == nil {
		named := arg
		if !strings.ContainsAny(arg, `/\`) {
			named = sys.LookPath(arg)
		} else if sys.Paths.IsAbs(arg) {
			named = sys.Paths.Clean(arg)
		} else if wd, err := sys.Getwd(); err == nil { // the System's, not the process's
			named = sys.Paths.Join(wd, arg)
		}
		if named != "" && sameFile(sys, named, exe) {
			exe = named
		}
	}
	if sys.Paths.Windows {
		exe = filepath.ToSlash(exe) // see gates.HookCommand
	}
	return exe, nil
}

// runningBinary is this process's binary.
func runningBinary(sys *core.System) (string, error) {
	find := sys.Executable
	if find == nil {
		find = os.Executable
	}
	exe, err := find()
	if err != nil {
		return "", fmt.Errorf("find charter's own path for the agents' Stop hook: %w", err)
	}
	return exe, nil
}

func sameFile(sys *core.System, a, b string) bool {
	fa, err := sys.Fs.Stat(a)
	if err != nil {
		return false
	}
	fb, err := sys.Fs.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}

// inBuildCache tells whether exe lies in Go's build cache (GOCACHE, or its
// default under the user cache directory), or in a go-build work
// directory, where `go run` builds when the cache is off.
func inBuildCache(sys *core.System, exe string) bool {
	clean := sys.Paths.Clean(exe)
	for _, seg := range strings.Split(clean, sys.Paths.Sep()) {
		if strings.HasPrefix(seg, "go-build") {
			return true
		}
	}
	for _, cache := range goCaches(sys) {
		if _, in := sys.Paths.Within(sys.Paths.Clean(cache), clean); in {
			return true
		}
	}
	return false
}

// goCaches are the directories Go's build cache may be in: GOCACHE, or
// the default os.UserCacheDir()/go-build computed from charter's own
// environment.
func goCaches(sys *core.System) []string {
	if c := sys.Getenv("GOCACHE"); c != "" && c != "off" && sys.Paths.IsAbs(c) {
		return []string{c}
	}
	var base string
	switch {
	case sys.Paths.Windows:
		base = sys.Getenv("LocalAppData")
	case sys.Getenv("XDG_CACHE_HOME") != "" && sys.Paths.IsAbs(sys.Getenv("XDG_CACHE_HOME")):
		base = sys.Getenv("XDG_CACHE_HOME")
	case sys.Getenv("HOME") != "":
		base = sys.Paths.Join(sys.Getenv("HOME"), ".cache")
	}
	if base == "" {
		return nil
	}
	out := []string{sys.Paths.Join(base, "go-build")}
	if h := sys.Getenv("HOME"); h != "" && !sys.Paths.Windows {
		out = append(out, sys.Paths.Join(h, "Library", "Caches", "go-build")) // macOS
	}
	return out
}

// IsCharter tells whether the executable file at path is a charter binary,
// by the Go build info it carries (read, never run): its main module is
// charter's. known is false when the file is no Go binary (a wrapper
// script, a version manager's shim), which cannot be told without running
// it.
func IsCharter(sys *core.System, path string) (is, known bool) {
	f, err := sys.Fs.Open(path)
	if err != nil {
		return false, false
	}
	defer f.Close()
	ra, ok := f.(interface {
		ReadAt([]byte, int64) (int, error)
	})
	if !ok {
		return false, false
	}
	mod, err := goexe.MainModule(ra)
	if err != nil {
		return false, false
	}
	return mod == Module, true
}

// CommandProgram is the first word of a hook command as a POSIX shell
// reads it: plain, or quoted with single or double quotes. ok is false
// when the word needs the shell to expand it ($VAR, `…`, ~): it cannot be
// resolved without running one.
func CommandProgram(command string) (word string, ok bool) {
	s := strings.TrimLeft(command, " \t")
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == ' ' || c == '\t' || c == ';' || c == '&' || c == '|':
			return b.String(), b.Len() > 0
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return "", false
			}
			b.WriteString(s[i+1 : i+1+j])
			i += j + 1
		case c == '"':
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '$' || s[i] == '`' {
					return "", false
				}
				if s[i] == '\\' && i+1 < len(s) {
					i++
				}
				b.WriteByte(s[i])
			}
			if i >= len(s) {
				return "", false
			}
		case c == '\\' && i+1 < len(s):
			i++
			b.WriteByte(s[i])
		case c == '$' || c == '`' || (c == '~' && b.Len() == 0):
			return "", false
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), b.Len() > 0
}
