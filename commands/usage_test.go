package commands

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core/fsys"
)

// Every bad command line gets a message in the user's words with the fix,
// and the usage line of the command it concerns; none of Kong's or Go's
// wording leaks through (issue 16 item 5). Kong's errors are recognised by
// their text in usage.go: this table fails if an upgrade rewords one.
func TestUsageMessages(t *testing.T) {
	home := t.TempDir()
	for _, c := range []struct {
		args    []string
		message string // stderr's first line after "charter: "
		usage   string // "" when no usage line is printed
	}{
		{[]string{"settings", "set", "cost.budget.daily", "-1"},
			"-1 looks like a negative number, but a word that starts with - is read as a flag: put -- before it, as in `charter settings set cost.budget.daily -- -1`",
			"charter settings set KEY VALUE [flags]"},
		{[]string{"settings", "set", "cost.budget.daily", "-0.5", "--confirm-shared"},
			"-0.5 looks like a negative number, but a word that starts with - is read as a flag: put -- before it, as in `charter settings set cost.budget.daily --confirm-shared -- -0.5`",
			"charter settings set KEY VALUE [flags]"},
		{[]string{"settings", "set", "rules.tier"},
			"missing VALUE (the value; lists as a,b,c or a JSON array; a negative number after --)",
			"charter settings set KEY VALUE [flags]"},
		{[]string{"settings", "set"}, "missing KEY and VALUE", "charter settings set KEY VALUE [flags]"},
		{[]string{"settings", "get"}, "missing KEY (dotted key, e.g. rules.tier)", "charter settings get KEY [flags]"},
		{[]string{"settings"}, "settings needs a command: list, get, set, unset, path, edit or schema", "charter settings COMMAND [flags]"},
		{[]string{"--config-root", "x"}, "no command given: choose ", "charter COMMAND [flags]"},
		{[]string{"settings", "lst"}, `settings has no command "lst": did you mean "list"?`, "charter settings COMMAND [flags]"},
		{[]string{"seting", "list"}, `unknown command "seting": did you mean "settings"?`, "charter COMMAND [flags]"},
		{[]string{"frobnicate"}, `unknown command "frobnicate": choose detect, dismiss, `, "charter COMMAND [flags]"},
		{[]string{"settings", "set", "rules.disabled", "a", "b"},
			`too many arguments: charter settings set takes KEY VALUE, and "b" is one more (quote a value that holds spaces)`,
			"charter settings set KEY VALUE [flags]"},
		{[]string{"ping", "now"}, `ping takes no arguments, but got "now"`, "charter ping [flags]"},
		{[]string{"--config-root"}, "--config-root needs a value: --config-root PATH", "charter COMMAND [flags]"},
		{[]string{"ping", "--require"}, "--require needs a value: --require CAP,...", "charter ping [flags]"},
		{[]string{"--config-root", "--json", "ping"},
			"--config-root needs a value, but the next word is the flag --json: give the value right after it (--config-root PATH), or write --config-root=--json if the value itself starts with -",
			"charter COMMAND [flags]"},
		{[]string{"--config-root", "-v", "ping"},
			"--config-root needs a value, but the next word is the flag -v: give the value right after it (--config-root PATH), or write --config-root=-v if the value itself starts with -",
			"charter COMMAND [flags]"},
		{[]string{"-x"}, "unknown flag -x: `charter --help` lists the flags it takes", "charter COMMAND [flags]"},
		{[]string{"--jsn", "ping"}, "unknown flag --jsn: did you mean --json?", "charter COMMAND [flags]"},
		{[]string{"settings", "list", "--show-orign"}, "unknown flag --show-orign: did you mean --show-origin?", "charter settings list [PREFIX] [flags]"},
		{[]string{"apply", "--bogus"}, "unknown flag --bogus: `charter apply --help` lists the flags it takes", "charter apply [flags]"},
		{[]string{"serve", "--port", "x"}, `--port: "x" is not a whole number`, "charter serve [flags]"},
		{[]string{"serve", "--idle-timeout", "soon"}, `--idle-timeout: "soon" is not a duration: use a number and a unit, e.g. 90s, 30m or 1h`, "charter serve [flags]"},
		{[]string{"settings", "list", "--show-origin=maybe"},
			`--show-origin is a switch: give it alone to turn it on (--show-origin=false turns it off), not "maybe"`,
			"charter settings list [PREFIX] [flags]"},
		{[]string{"help", "frob"}, `unknown command "frob": choose detect, dismiss, `, "charter help [COMMAND...]"},
		{[]string{"help", "exitcodes"}, `unknown command or topic "exitcodes": did you mean "exit-codes"?`, "charter help [COMMAND...]"},
		// core's messages, fixed at the source
		{[]string{"settings", "set", "rules.disabled", "a,,b"},
			"rules.disabled: the list has an empty item: give each rule name once, as a,b,c (no empty item between commas)", ""},
	} {
		r := runCharter(t, home, "", false, c.args...)
		first, rest, _ := strings.Cut(r.stderr, "\n")
		if r.code != 2 || !strings.HasPrefix(first, "charter: "+c.message) {
			t.Errorf("%q: exit %d\n got: %s\nwant: charter: %s", c.args, r.code, first, c.message)
		}
		wantRest := ""
		if c.usage != "" {
			wantRest = "usage: " + c.usage + "\n"
		}
		if rest != wantRest {
			t.Errorf("%q: after the message\n got: %q\nwant: %q", c.args, rest, wantRest)
		}
		for _, leak := range []string{"EOL", "short flag", "long flag", "perhaps try", "expected ", "see charter --help", "did you mean \"-h\""} {
			if strings.Contains(r.stderr, leak) {
				t.Errorf("%q: Kong's wording %q leaks: %s", c.args, leak, r.stderr)
			}
		}
	}
}

// The usage line travels in the JSON error body too.
func TestUsageLineInJSON(t *testing.T) {
	r := runCharter(t, t.TempDir(), "", false, "settings", "get", "--json")
	if r.code != 2 || !strings.Contains(r.stdout, `"usage": "charter settings get KEY [flags]"`) || !strings.Contains(r.stdout, `"message": "missing KEY`) {
		t.Errorf("exit %d: %s", r.code, r.stdout)
	}
}

// The operating system's errors name each path once, never the temporary
// file, and say what to do.
func TestOSErrorMessages(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "plain")
	os.WriteFile(file, nil, 0o600)
	app := newApp(Build{}, strings.NewReader(""), nil, nil, nil, afero.NewOsFs(), nil)
	target := filepath.Join(dir, "settings.yaml")
	tmp := filepath.Join(dir, fsys.TempName("settings.yaml", 0x123))
	below := filepath.Join(file, "charter", "settings.yaml")
	for _, c := range []struct {
		err  error
		want string
	}{
		{wrapf("read %s: %w", below, &fs.PathError{Op: "open", Path: below, Err: syscall.ENOTDIR}),
			"read " + below + ": " + file + " is a file, not a directory: move it away, or choose another path"},
		{wrapf("create %s: %w", filepath.Join(file, "locks"), &fs.PathError{Op: "mkdir", Path: file, Err: syscall.ENOTDIR}),
			"create " + filepath.Join(file, "locks") + ": " + file + " is a file, not a directory: move it away, or choose another path"},
		{wrapf("write %s: %w", target, &fs.PathError{Op: "open", Path: tmp, Err: syscall.EACCES}),
			"write " + target + ": permission denied: charter may not create files in " + dir + "; check that directory's owner and permissions"},
		{wrapf("write %s: %w", target, &os.LinkError{Op: "rename", Old: tmp, New: target, Err: syscall.EACCES}),
			"write " + target + ": permission denied: check the owner and permissions of settings.yaml and of " + dir},
		{wrapf("read %s: %w", target, &fs.PathError{Op: "open", Path: target, Err: syscall.EACCES}),
			"read " + target + ": permission denied: check the owner and permissions of settings.yaml and of " + dir},
		{wrapf("write %s: %w", target, &fs.PathError{Op: "write", Path: tmp, Err: syscall.ENOSPC}),
			"write " + target + ": the disk is full"},
		{&fs.PathError{Op: "open", Path: target, Err: syscall.EROFS}, target + ": the file system is read-only"},
	} {
		got := app.message(c.err)
		if got != c.want {
			t.Errorf("\n got: %s\nwant: %s", got, c.want)
		}
		if strings.Contains(got, ".tmp-") {
			t.Errorf("the temporary file leaks: %s", got)
		}
	}
}

func wrapf(format, path string, err error) error { return fmt.Errorf(format, path, err) }
