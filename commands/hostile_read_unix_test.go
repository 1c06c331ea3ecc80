//go:build unix

package commands

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core/coretest"
)

// hostileKinds are what a repository (or anyone) can put where charter
// reads a file: a link to a device whose content never ends, a named pipe
// whose open or read never returns, and a link to a pipe as /dev/stdin is
// (here a pipe of this process through /proc/self/fd, so that it does not
// depend on what the test's own stdin is). Each makes the file at path.
func hostileKinds(t *testing.T) map[string]func(path string) {
	kinds := map[string]func(string){
		"devzero": func(p string) { mustDo(t, os.Symlink("/dev/zero", p)) },
		"fifo":    func(p string) { mustDo(t, syscall.Mkfifo(p, 0o644)) },
	}
	if _, err := os.Stat("/proc/self/fd"); err == nil {
		r, w, err := os.Pipe()
		mustDo(t, err)
		t.Cleanup(func() { r.Close(); w.Close() })
		fd := "/proc/self/fd/" + strconv.Itoa(int(r.Fd()))
		kinds["stdin"] = func(p string) { mustDo(t, os.Symlink(fd, p)) }
	} else if runtime.GOOS == "linux" {
		t.Fatal("no /proc/self/fd on Linux")
	}
	return kinds
}

func mustDo(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// Every read position refuses what is not a regular file: exit 1 (a gate
// run: the gate fails, exit 5) with a message naming the file, instead of
// hanging or growing without bound. A watchdog fails the test if a command
// does not return; nothing is asserted about how fast it is.
func TestHostileReads(t *testing.T) {
	type position struct {
		name string
		file func(w hostileWorld) string // where the hostile file goes
		args []string
		exit int
		code string // the JSON error code (a gate run: "" and the gate's message)
	}
	settingsList := []string{"settings", "list", "--json"}
	applyProject := []string{"apply", "--project", "--agent", "claude", "--json"}
	positions := []position{
		{"scope settings.yaml", func(w hostileWorld) string { return filepath.Join(w.root, "settings.yaml") }, settingsList, 1, "not_regular_file"},
		{"project settings.yaml", func(w hostileWorld) string { return filepath.Join(w.project, ".charter", "settings.yaml") }, settingsList, 1, "not_regular_file"},
		{"settings.local.yaml", func(w hostileWorld) string { return filepath.Join(w.project, ".charter", "settings.local.yaml") }, settingsList, 1, "not_regular_file"},
		{"policy", func(w hostileWorld) string { return w.policy }, settingsList, 1, "malformed_policy"},
		{"user CLAUDE.md", func(w hostileWorld) string { return filepath.Join(w.home, ".claude", "CLAUDE.md") }, []string{"apply", "--agent", "claude", "--json"}, 1, "not_regular_file"},
		{"project CLAUDE.md", func(w hostileWorld) string { return filepath.Join(w.project, "CLAUDE.md") }, applyProject, 1, "not_regular_file"},
		{"project .claude/settings.json", func(w hostileWorld) string { return filepath.Join(w.project, ".claude", "settings.json") }, applyProject, 1, "not_regular_file"},
		{"project .mcp.json", func(w hostileWorld) string { return filepath.Join(w.project, ".mcp.json") }, applyProject, 1, "not_regular_file"},
		{"project .codex/hooks.json", func(w hostileWorld) string { return filepath.Join(w.project, ".codex", "hooks.json") },
			[]string{"apply", "--project", "--agent", "codex", "--json"}, 1, "not_regular_file"},
		{"doctor: project settings.yaml", func(w hostileWorld) string { return filepath.Join(w.project, ".charter", "settings.yaml") }, []string{"doctor"}, 5, ""},
		{"coverage report", func(w hostileWorld) string { return filepath.Join(w.project, "cover.out") }, []string{"gate", "run", "--json"}, 5, ""},
	}
	for _, pos := range positions {
		for kind, place := range hostileKinds(t) {
			t.Run(pos.name+"/"+kind, func(t *testing.T) {
				w := newHostileWorld(t)
				path := pos.file(w)
				os.Remove(path)
				place(path)
				var res run
				done := make(chan struct{})
				go func() {
					defer close(done)
					res = w.run(append([]string{"--config-root", w.root, "--project-dir", w.project}, pos.args...)...)
				}()
				select {
				case <-done:
				case <-time.After(30 * time.Second):
					t.Fatalf("%v did not return within 30s: it is reading %s", pos.args, path)
				}
				if res.code != pos.exit {
					t.Fatalf("exit %d, want %d\nstdout %s\nstderr %s", res.code, pos.exit, res.stdout, res.stderr)
				}
				all := res.stdout + res.stderr
				if !strings.Contains(all, path) {
					t.Errorf("the output does not name %s:\n%s", path, all)
				}
				if !strings.Contains(all, "not a regular file") && !(kind != "fifo" && strings.Contains(all, "leads out of the project")) {
					t.Errorf("the output does not say what is wrong:\n%s", all)
				}
				if pos.code != "" {
					var doc struct{ Error struct{ Code string } }
					if err := json.Unmarshal([]byte(res.stdout), &doc); err != nil || !codeFits(doc.Error.Code, pos.code, kind) {
						t.Errorf("code %q, want %q: %s", doc.Error.Code, pos.code, res.stdout)
					}
				}
			})
		}
	}
}

// codeFits allows, for a link that leads out of the project, the
// confinement's outside_project in place of the read's own refusal: which
// check speaks first is not what this test is about.
func codeFits(got, want, kind string) bool {
	return got == want || (kind != "fifo" && want == "not_regular_file" && got == "outside_project")
}

// hostileWorld is a home, a host config root, a project with settings and
// a policy path, all regular and valid until a test puts something else
// in one place.
type hostileWorld struct {
	home, root, project, policy string
}

func newHostileWorld(t *testing.T) hostileWorld {
	d := t.TempDir()
	w := hostileWorld{home: filepath.Join(d, "home"), root: filepath.Join(d, "root"), project: filepath.Join(d, "project"), policy: filepath.Join(d, "policy.yaml")}
	for _, p := range []string{filepath.Join(w.home, ".claude"), w.root, filepath.Join(w.project, ".charter"), filepath.Join(w.project, ".claude"), filepath.Join(w.project, ".codex")} {
		mustDo(t, os.MkdirAll(p, 0o700))
	}
	// The coverage gate is the user's own (the scope layer): it runs in any
	// project, trusted or not.
	coretest.WriteFile(t, filepath.Join(w.root, "settings.yaml"), "gates:\n  coverage:\n    command: \"true\"\n    report: cover.out\n    min: 50\n")
	coretest.WriteFile(t, filepath.Join(w.project, ".charter", "settings.yaml"), "rules:\n  tier: full\n")
	coretest.WriteFile(t, filepath.Join(w.project, ".charter", "settings.local.yaml"), "rules:\n  tier: full\n")
	coretest.WriteFile(t, w.policy, "minimum:\n  gates.coverage.min: 10\n")
	coretest.WriteFile(t, filepath.Join(w.project, "cover.out"), "mode: set\na.go:1.1,2.2 1 1\n")
	return w
}

func (w hostileWorld) run(args ...string) run {
	var out, errb bytes.Buffer
	env := []string{"HOME=" + w.home, "PATH=" + os.Getenv("PATH"), "AGENTKIT_POLICY_FILE=" + w.policy}
	app := newApp(Build{Version: "t"}, strings.NewReader(""), &out, &errb, env, afero.NewOsFs(), args)
	app.Interactive = func() bool { return false }
	code := int(app.run(context.Background(), args))
	return run{code, out.String(), errb.String()}
}
