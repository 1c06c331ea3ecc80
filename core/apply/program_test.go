package apply

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentkit/charter/core/coretest"
)

// The program of the hook entry, by where the running binary is.
func TestHookProgram(t *testing.T) {
	m := coretest.New(t, coretest.Env("PATH=$DIR/bin", "GOCACHE=$DIR/cache"))
	bin := filepath.Join(m.Dir, "bin", "charter")
	other := filepath.Join(m.Dir, "opt", "charter")
	cached := filepath.Join(m.Dir, "cache", "3f", "charter") // go run, Go ≥ 1.24
	tmp := "/tmp/go-build123/b001/exe/charter"               // go run with the cache off
	for _, p := range []string{bin, other, cached, tmp} {
		coretest.WriteFile(t, p, "binary")
		if err := os.Chmod(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var warned []string
	m.Sys.Warn = func(msg string) { warned = append(warned, msg) }
	for _, c := range []struct {
		level, exe, want string
		warn             bool
	}{
		{LevelProject, other, Program, false},
		{LevelUser, bin, Program, false},
		{LevelUser, other, other, false},
		{LevelUser, cached, Program, true},
		{LevelUser, tmp, Program, true},
	} {
		warned = nil
		exe := c.exe
		m.Sys.Executable = func() (string, error) { return exe, nil }
		got, err := hookProgram(m.Sys, c.level)
		if err != nil || got != c.want || (len(warned) > 0) != c.warn {
			t.Errorf("%s %s: %q, %v, warnings %q; want %q, warning %v", c.level, c.exe, got, err, warned, c.want, c.warn)
		}
		if c.warn && !strings.Contains(warned[0], "go install ./cmd/charter") {
			t.Errorf("warning %q does not say how to install charter", warned[0])
		}
	}
}

func TestCommandProgram(t *testing.T) {
	for cmd, want := range map[string]string{
		"charter gate hook claude-stop":                                "charter",
		"/usr/local/bin/charter --config-root /x gate hook codex-stop": "/usr/local/bin/charter",
		"'/home/a b/charter' gate hook claude-stop":                    "/home/a b/charter",
		`"/home/a b/charter" gate hook claude-stop`:                    "/home/a b/charter",
		`/home/a\ b/charter gate hook claude-stop`:                     "/home/a b/charter",
		`"$HOME/bin/charter" gate hook claude-stop`:                    "",
		"~/bin/charter gate hook claude-stop":                          "",
	} {
		got, ok := CommandProgram(cmd)
		if got != want || ok != (want != "") {
			t.Errorf("CommandProgram(%q) = %q, %v; want %q", cmd, got, ok, want)
		}
	}
}
