package commands

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/spf13/afero"

	"github.com/agentkit/charter/core/coretest"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"charter": func() {
			// As in cmd/charter (Run): `kill -INT` must stop a server
			// cleanly, and a stuck command within StopGrace.
			args := os.Args[1:]
			app := newApp(Build{Version: "1.2.3-test", Commit: "abc123"}, os.Stdin, os.Stdout, os.Stderr, os.Environ(), afero.NewOsFs(), args)
			// A script cannot own a terminal: CHARTER_TEST_TERMINAL=1 makes
			// every stream count as one (prompts, colour).
			if os.Getenv("CHARTER_TEST_TERMINAL") != "" {
				app.Terminal = func(any) bool { return true }
			}
			os.Exit(int(app.runSignalled(args)))
		},
	})
}

// shellsForScripts are the shells a script may run, as [bash] exec $BASH.
var shellsForScripts = []string{"bash", "zsh", "fish"}

func TestScripts(t *testing.T) {
	testscript.Run(t, scriptParams())
}

func scriptParams() testscript.Params {
	return testscript.Params{
		Dir:                 filepath.Join("..", "testdata", "script"),
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		UpdateScripts:       os.Getenv("UPDATE_SCRIPTS") != "", // rewrite cmp goldens in place
		Condition: func(cond string) (bool, error) {
			if slices.Contains(shellsForScripts, cond) || cond == "gotool" { // on the test's own PATH; gotool: go for the gate scripts
				name := cond
				if cond == "gotool" {
					name = "go"
				}
				_, err := exec.LookPath(name)
				return err == nil, nil
			}
			if cond == "git" { // sources scripts; CI must have it
				_, err := exec.LookPath("git")
				if err != nil && os.Getenv("CI") == "true" {
					return false, fmt.Errorf("git is missing: the sources scripts need it")
				}
				return err == nil, nil
			}
			if cond == "pyyaml" { // a YAML 1.1 reader; CI must have it (.ci/run)
				ok := pyYAML() != ""
				if !ok && os.Getenv("CI") == "true" {
					return false, fmt.Errorf("python3 with PyYAML is missing: .ci/run installs it")
				}
				return ok, nil
			}
			if cond == "peers" { // real ruler and rulesync (moves_test.go); CI must have them
				return peersReady()
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exits":    cmdExits,
			"mode":     cmdMode,
			"readlink": cmdReadlink,
			"tree":     cmdTree,
			// serve_script_test.go
			"waitfile":   cmdWaitfile,
			"http":       cmdHTTP,
			"fakeserver": cmdFakeServer,
			"holds":      cmdHolds,
			"sigterm":    cmdSigterm,
			"stopproc":   cmdStopProc, // signals_test.go
			"sparse":     cmdSparse,   // library_caps_test.go
			// moves_test.go
			"peer":        cmdPeer,
			"agentview":   cmdAgentView,
			"samemeaning": cmdSameMeaning,
		},
		Setup: func(e *testscript.Env) error {
			// Pin everything charter reads, so the developer's own
			// environment never leaks in.
			home := filepath.Join(e.WorkDir, "home")
			if err := os.MkdirAll(home, 0o755); err != nil {
				return err
			}
			e.Setenv("HOME", home)
			e.Setenv("USERPROFILE", home)
			bin := filepath.Join(e.WorkDir, "bin")
			if err := os.MkdirAll(bin, 0o755); err != nil {
				return err
			}
			// Only the test binary's directory and $WORK/bin: no agent-switch
			// of the developer's can be found.
			self := strings.Split(e.Getenv("PATH"), string(os.PathListSeparator))[0]
			e.Setenv("PATH", self+string(os.PathListSeparator)+bin)
			// Scripts run shells by their full path (completion.txtar):
			// PATH above hides them.
			for _, sh := range shellsForScripts {
				if p, err := exec.LookPath(sh); err == nil {
					e.Setenv(strings.ToUpper(sh), p)
				}
			}
			// git's folder, for the sources scripts (PATH above hides it);
			// commits made there need no user configuration.
			if p, err := exec.LookPath("git"); err == nil {
				e.Setenv("GITDIR", filepath.Dir(p))
				for _, v := range []string{"GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL"} {
					e.Setenv(v, "charter-test")
				}
			}
			// A python3 with PyYAML, for settings_yaml11.txtar.
			if py := pyYAML(); py != "" {
				if p, err := exec.LookPath(py); err == nil {
					e.Setenv("PYYAML", p)
				}
			}
			// The charter binary itself, for scripts that copy it elsewhere.
			if exe, err := filepath.EvalSymlinks(filepath.Join(self, "charter")); err == nil {
				e.Setenv("CHARTER_BIN", exe)
			}
			// The gate scripts build real Go modules: they put $GODIR on
			// PATH, and share the developer's build cache so that a
			// script does not compile the standard library afresh.
			if gobin, err := exec.LookPath("go"); err == nil {
				e.Setenv("GODIR", filepath.Dir(gobin))
				if cache, err := os.UserCacheDir(); err == nil && os.Getenv("GOCACHE") == "" {
					e.Setenv("GOCACHE", filepath.Join(cache, "go-build"))
				} else {
					e.Setenv("GOCACHE", os.Getenv("GOCACHE"))
				}
				e.Setenv("GOTOOLCHAIN", "local")
				e.Setenv("GOPROXY", "off")
				e.Setenv("GOFLAGS", "")
			}
			for _, v := range coretest.Cleared() {
				e.Setenv(v, "")
			}
			// The machine's own policy must not apply: the policy file is
			// $WORK/policy.yaml, absent until a script writes it.
			e.Setenv(coretest.PolicyVar, filepath.Join(e.WorkDir, "policy.yaml"))
			return nil
		},
	}
}

// cmdExits runs a program and checks its exact exit code:
// exits 2 charter settings get nope
func cmdExits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits CODE program [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits: bad code %q", args[0])
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("exits: %v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("exit code %d, want %d", got, want)
	}
}

// cmdMode checks a file's permission bits: mode 0600 file
func cmdMode(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: mode PERM file")
	}
	want, err := strconv.ParseUint(args[0], 8, 32)
	if err != nil {
		ts.Fatalf("mode: bad permission %q", args[0])
	}
	fi, err := os.Stat(ts.MkAbs(args[1]))
	ts.Check(err)
	if got := uint64(fi.Mode().Perm()); (got == want) == neg {
		ts.Fatalf("%s has mode %#o, want %s%#o", args[1], got, map[bool]string{true: "not ", false: ""}[neg], want)
	}
}

// cmdReadlink checks where a symbolic link points: readlink LINK TARGET
func cmdReadlink(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: readlink LINK TARGET")
	}
	fi, err := os.Lstat(ts.MkAbs(args[0]))
	ts.Check(err)
	if fi.Mode()&os.ModeSymlink == 0 {
		ts.Fatalf("%s is no longer a symbolic link", args[0])
	}
	got, err := os.Readlink(ts.MkAbs(args[0]))
	ts.Check(err)
	if got != args[1] {
		ts.Fatalf("%s points to %s, want %s", args[0], got, args[1])
	}
}

// cmdTree writes a listing of every entry under DIR to FILE, one line each
// (path, kind, mode, link text or content hash), so that `cmp` of two
// listings proves nothing under DIR was written: tree DIR FILE
func cmdTree(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: tree DIR FILE")
	}
	listing, err := coretest.Listing(ts.MkAbs(args[0]))
	ts.Check(err)
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(listing), 0o644))
}

// pyYAML is a python3 that imports PyYAML: the one on PATH, else the
// system's (Debian's python3-yaml, which .ci/run installs, is for
// /usr/bin/python3 even where another python3 comes first on PATH).
func pyYAML() string {
	for _, py := range []string{"python3", "/usr/bin/python3"} {
		if exec.Command(py, "-c", "import yaml").Run() == nil {
			return py
		}
	}
	return ""
}
