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
)

// sharedProfile is a claude profile whose CLAUDE.md links to a file all
// profiles share; it returns the environment, the link and the shared file.
func sharedProfile(t *testing.T) (environ []string, link, shared string) {
	home := t.TempDir()
	dir := filepath.Join(home, ".agent-switch", "claude", "work", "config")
	shared = filepath.Join(home, ".agent-switch", "shared", "CLAUDE.md")
	os.MkdirAll(dir, 0o755)
	os.MkdirAll(filepath.Dir(shared), 0o755)
	os.WriteFile(shared, []byte("# shared\n"), 0o644)
	link = filepath.Join(dir, "CLAUDE.md")
	if err := os.Symlink(shared, link); err != nil {
		t.Skip("no symlinks here:", err)
	}
	return []string{"HOME=" + home, "CLAUDE_CONFIG_DIR=" + dir}, link, shared
}

func runApply(t *testing.T, environ []string, stdin string, interactive bool, args ...string) run {
	t.Helper()
	var out, errb bytes.Buffer
	args = append([]string{"apply"}, args...)
	app := newApp(Build{Version: "t"}, strings.NewReader(stdin), &out, &errb, environ, afero.NewOsFs(), args)
	app.Interactive = func() bool { return interactive }
	code := int(app.run(context.Background(), args))
	return run{code, out.String(), errb.String()}
}

func TestApplyPromptCancel(t *testing.T) {
	env, _, shared := sharedProfile(t)
	r := runApply(t, env, "2\n", true)
	if r.code != 4 || !strings.Contains(r.stderr, "1) Write (affects all profiles)") || !strings.Contains(r.stderr, "cancelled") {
		t.Fatalf("exit %d:\n%s", r.code, r.stderr)
	}
	if !strings.HasPrefix(r.stdout, "claude  blocked ") {
		t.Errorf("stdout %q", r.stdout)
	}
	if got, _ := os.ReadFile(shared); string(got) != "# shared\n" {
		t.Errorf("cancel wrote %q", got)
	}
}

func TestApplyPromptWrite(t *testing.T) {
	env, link, shared := sharedProfile(t)
	r := runApply(t, env, "1\n", true)
	if r.code != 0 || !strings.HasPrefix(r.stdout, "claude  written ") {
		t.Fatalf("exit %d: %s\n%s", r.code, r.stdout, r.stderr)
	}
	if got, _ := os.ReadFile(shared); !strings.HasPrefix(string(got), "# shared\n\n<!-- charter:begin -->\n") {
		t.Errorf("shared file %q", got)
	}
	if dest, _ := os.Readlink(link); dest != shared {
		t.Errorf("link now points to %q", dest)
	}
}

// Blocked with --json: the report is the one document, the exit is 4.
func TestApplyBlockedJSONIsOneDocument(t *testing.T) {
	env, link, _ := sharedProfile(t)
	r := runApply(t, env, "", false, "--json")
	var doc struct {
		Targets []struct{ Agent, State, SharedPath string }
	}
	dec := json.NewDecoder(strings.NewReader(r.stdout))
	if err := dec.Decode(&doc); err != nil || dec.More() {
		t.Fatalf("stdout is not one document: %v\n%s", err, r.stdout)
	}
	// The shared CLAUDE.md is blocked; the profile's own settings.json
	// (charter's Stop hook) is still written.
	if r.code != 4 || len(doc.Targets) != 2 || doc.Targets[0].State != "blocked" || doc.Targets[0].SharedPath != link ||
		doc.Targets[1].State != "written" {
		t.Errorf("exit %d, %s", r.code, r.stdout)
	}
	if strings.Count(r.stderr, "charter: ") != 1 {
		t.Errorf("stderr %q", r.stderr)
	}
}
