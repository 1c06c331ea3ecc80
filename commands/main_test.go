package commands

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core/coretest"
)

type run struct {
	code           int
	stdout, stderr string
}

func runCharter(t *testing.T, home, stdin string, interactive bool, args ...string) run {
	t.Helper()
	var out, errb bytes.Buffer
	app := newApp(Build{Version: "t"}, strings.NewReader(stdin), &out, &errb, coretest.New(t, coretest.Home(home)).Environ(), afero.NewOsFs(), args)
	app.Interactive = func() bool { return interactive }
	code := int(app.run(context.Background(), args))
	return run{code, out.String(), errb.String()}
}

func TestExitCodes(t *testing.T) {
	home := t.TempDir()
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"ping"}, 0},
		{[]string{"--bogus"}, 2},
		{[]string{}, 0}, // bare charter shows the help
		{[]string{"--config-root", "", "ping"}, 2},
		{[]string{"dismiss", "nope"}, 2},
		{[]string{"settings", "get", "nope"}, 2},
		{[]string{"settings", "set", "rules.tier", "x"}, 2},
		{[]string{"--help"}, 0},
		{[]string{"--version"}, 0},
	} {
		if r := runCharter(t, home, "", false, c.args...); r.code != c.code {
			t.Errorf("%v: exit %d, want %d (%s)", c.args, r.code, c.code, r.stderr)
		}
	}
}

func TestJSONErrorIsOneDocument(t *testing.T) {
	r := runCharter(t, t.TempDir(), "", false, "settings", "get", "rules.teir", "--json")
	var doc struct {
		Error struct{ Code, Message string }
	}
	dec := json.NewDecoder(strings.NewReader(r.stdout))
	if err := dec.Decode(&doc); err != nil || doc.Error.Code != "unknown_key" || dec.More() {
		t.Fatalf("stdout %q: %v", r.stdout, err)
	}
	if strings.Count(r.stderr, "charter: ") != 1 {
		t.Fatalf("stderr %q", r.stderr)
	}
}

// sharedRoot makes a host root inside the companion tree whose settings.yaml
// is a link to a file all profiles share.
func sharedRoot(t *testing.T) (home, root, shared string) {
	home = t.TempDir()
	root = filepath.Join(home, ".agent-switch/claude/work/charter")
	shared = filepath.Join(home, ".agent-switch/shared/settings.yaml")
	os.MkdirAll(root, 0o755)
	os.MkdirAll(filepath.Dir(shared), 0o755)
	os.WriteFile(shared, []byte("rules:\n  tier: minimal\n"), 0o644)
	if err := os.Symlink(shared, filepath.Join(root, "settings.yaml")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	return home, root, shared
}

func TestPromptCancelWritesNothing(t *testing.T) {
	home, root, shared := sharedRoot(t)
	for _, answer := range []string{"2\n", "\n", "", "no\n"} {
		r := runCharter(t, home, answer, true, "--config-root", root, "settings", "set", "rules.tier", "full")
		if r.code != 4 {
			t.Fatalf("answer %q: exit %d, want 4: %s", answer, r.code, r.stderr)
		}
		for _, want := range []string{"1) Write (affects all profiles)", "2) Cancel", "agent-switch share off", "cancelled"} {
			if !strings.Contains(r.stderr, want) {
				t.Errorf("prompt lacks %q:\n%s", want, r.stderr)
			}
		}
		if got, _ := os.ReadFile(shared); string(got) != "rules:\n  tier: minimal\n" {
			t.Fatalf("cancel wrote: %q", got)
		}
	}
}

func TestPromptWriteGoesThroughLink(t *testing.T) {
	home, root, shared := sharedRoot(t)
	r := runCharter(t, home, "1\n", true, "--config-root", root, "settings", "set", "rules.tier", "full")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if got, _ := os.ReadFile(shared); string(got) != "rules:\n  tier: full\n" {
		t.Fatalf("shared file %q", got)
	}
	if dest, _ := os.Readlink(filepath.Join(root, "settings.yaml")); dest != shared {
		t.Fatalf("link now points to %q", dest)
	}
}

func TestNoPromptWithoutTerminal(t *testing.T) {
	home, root, _ := sharedRoot(t)
	r := runCharter(t, home, "1\n", false, "--config-root", root, "settings", "set", "rules.tier", "full")
	if r.code != 4 || strings.Contains(r.stderr, "Choose") {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
}

// An answer that is neither choice asks again (issue 16 item 9): a typo
// followed by 1 writes; three wrong answers cancel.
func TestPromptAsksAgain(t *testing.T) {
	home, root, shared := sharedRoot(t)
	r := runCharter(t, home, "yes\n1\n", true, "--config-root", root, "settings", "set", "rules.tier", "full")
	if r.code != 0 || strings.Count(r.stderr, "Choose 1 or 2") != 2 || !strings.Contains(r.stderr, `"yes" is not one of the choices`) {
		t.Fatalf("exit %d:\n%s", r.code, r.stderr)
	}
	if got, _ := os.ReadFile(shared); string(got) != "rules:\n  tier: full\n" {
		t.Fatalf("shared file %q", got)
	}
	os.WriteFile(shared, []byte("rules:\n  tier: minimal\n"), 0o644)
	r = runCharter(t, home, "y\nok\nsure\n1\n", true, "--config-root", root, "settings", "set", "rules.tier", "full")
	if r.code != 4 || strings.Count(r.stderr, "Choose 1 or 2") != 3 || !strings.Contains(r.stderr, "after 3 tries that counts as Cancel") {
		t.Fatalf("exit %d:\n%s", r.code, r.stderr)
	}
	if got, _ := os.ReadFile(shared); string(got) != "rules:\n  tier: minimal\n" {
		t.Fatalf("three wrong answers wrote: %q", got)
	}
}
