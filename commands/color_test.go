package commands

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core/coretest"
)

// runTerminal runs charter in-process with every stream a (fake) terminal
// or none.
func runTerminal(t *testing.T, environ []string, terminal bool, args ...string) run {
	t.Helper()
	var out, errb bytes.Buffer
	environ = coretest.New(t, coretest.Env(environ...)).Environ()
	app := newApp(Build{Version: "t"}, strings.NewReader(""), &out, &errb, environ, afero.NewOsFs(), args)
	app.Terminal = func(any) bool { return terminal }
	code := int(app.run(context.Background(), args))
	return run{code, out.String(), errb.String()}
}

// Colour shows on a terminal only, and never with NO_COLOR or TERM=dumb:
// the --dry-run diff's lines and the charter: prefix of errors.
func TestColor(t *testing.T) {
	home := t.TempDir()
	os.MkdirAll(filepath.Join(home, ".claude"), 0o755)
	env := []string{"HOME=" + home}

	r := runTerminal(t, env, true, "apply", "--dry-run")
	for _, want := range []string{ansiBold + "--- /dev/null" + ansiReset + "\n", ansiCyan + "@@ -0,0 ", ansiGreen + "+<!-- charter:begin -->" + ansiReset + "\n"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("terminal diff lacks %q:\n%q", want, r.stdout[:min(len(r.stdout), 300)])
		}
	}
	r = runTerminal(t, env, true, "settings", "get", "nope")
	if !strings.HasPrefix(r.stderr, ansiError+"charter:"+ansiReset+" unknown setting") {
		t.Errorf("terminal error %q", r.stderr)
	}

	for name, c := range map[string]struct {
		env      []string
		terminal bool
	}{
		"pipe":     {env, false},
		"NO_COLOR": {append(env, "NO_COLOR=1"), true},
		"dumb":     {append(env, "TERM=dumb"), true},
	} {
		for _, args := range [][]string{{"apply", "--dry-run"}, {"settings", "get", "nope"}, {"apply", "--dry-run", "--json"}} {
			r := runTerminal(t, c.env, c.terminal, args...)
			if strings.Contains(r.stdout+r.stderr, "\x1b[") {
				t.Errorf("%s %v: colour in %q", name, args, r.stdout+r.stderr)
			}
		}
	}
	// An empty NO_COLOR counts as unset.
	if r := runTerminal(t, append(env, "NO_COLOR="), true, "apply", "--dry-run"); !strings.Contains(r.stdout, ansiGreen) {
		t.Errorf("NO_COLOR= (empty) turned colour off")
	}
}

func TestColorDiffKeepsText(t *testing.T) {
	diff := "--- a\n+++ b\n@@ -1 +1 @@\n-old\n+new\n same\n"
	got := strings.NewReplacer(ansiBold, "", ansiCyan, "", ansiRed, "", ansiGreen, "", ansiReset, "").Replace(colorDiff(diff))
	if got != diff {
		t.Errorf("colorDiff changed the text: %q", got)
	}
}
