//go:build unix

package commands

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/inert"
)

// hostile is what a repository can put into any text charter prints: OSC 52
// (writes the clipboard) ended by BEL, a C1 CSI, a right-to-left override,
// a line separator, DEL and a carriage return that would overwrite the line.
const hostile = "\x1b]52;c;aGk=\a\u009b\u202e\u2028\x7f\rEND"

// hostileYAML is hostile as a YAML double-quoted scalar: the source file
// itself is plain ASCII, its value is not.
const hostileYAML = `"\e]52;c;aGk=\a\x9b\u202e\u2028\x7f\rEND"`

// bidiValue is what a setting may hold (its text refuses every control):
// bidi controls only.
const bidiValue = "echo \u202eok\u2066"

// inertWorld is a home and two projects with content sources: one at a
// plain path, one whose folder name is hostile (every path printed holds it).
type inertWorld struct {
	m              *coretest.Machine
	plain, hostile string
}

func newInertWorld(t *testing.T) inertWorld {
	m := coretest.New(t, coretest.Env("PATH="+os.Getenv("PATH")))
	w := inertWorld{m: m, plain: filepath.Join(m.Dir, "plain"), hostile: filepath.Join(m.Dir, "dir"+hostile, "repo")}
	for _, p := range []string{w.plain, w.hostile} {
		mustDo(t, os.MkdirAll(filepath.Join(p, ".git"), 0o755))
		coretest.WriteFile(t, filepath.Join(p, ".charter", "settings.yaml"), "rules:\n  tier: full\n")
	}
	return w
}

// write puts files (paths relative to the world's folder) in place.
func (w inertWorld) write(t *testing.T, files map[string]string) {
	for rel, data := range files {
		coretest.WriteFile(t, filepath.Join(w.m.Dir, rel), data)
	}
}

func (w inertWorld) run(dir string, args ...string) run {
	var out, errb bytes.Buffer
	args = append([]string{"--project-dir", dir}, args...)
	app := newApp(Build{Version: "t"}, strings.NewReader(""), &out, &errb, w.m.Environ(), afero.NewOsFs(), args)
	app.Sys.Getwd = func() (string, error) { return dir, nil }
	app.Interactive = func() bool { return false }
	code := int(app.run(context.Background(), args))
	return run{code, out.String(), errb.String()}
}

// rawControl is the first character of s a terminal could act on, with
// its offset; line feed and tab are the output's own. -1 when none.
func rawControl(s string) (int, rune) {
	for i, r := range s {
		if r == utf8.RuneError || inert.Dangerous(r) && r != '\n' && r != '\t' {
			return i, r
		}
	}
	return -1, 0
}

const (
	rule     = "---\ndescription: " + hostileYAML + "\n---\nBody " + hostile + " body.\n"
	skill    = "---\nname: review\ndescription: " + hostileYAML + "\n---\nReview.\n"
	command  = "---\ndescription: " + hostileYAML + "\nargument-hint: " + hostileYAML + "\n---\nDo $ARGUMENTS.\n"
	subagent = "---\nname: checker\ndescription: " + hostileYAML + "\nmodel: " + hostileYAML + "\n---\nCheck.\n"
	// The user's own gate (no trust needed): its command holds a bidi
	// control, its output every hostile character, and it fails, so its
	// last lines are printed.
	hostileGate = "gates:\n  tests:\n    required: true\n    command: " +
		`"printf '\\033]52;c;aGk=\\007\\302\\233\\342\\200\\256\\342\\200\\250\\177\\rEND\\n'; exit 1 # \u202e"` + "\n"
)

// Every human output that prints text from a file (a name, a description,
// a path, a value, a gate's output, an error naming a file) shows its
// control, escape and bidi characters escaped, and no raw one reaches the
// terminal; the JSON outputs below keep the text exact.
func TestHumanOutputIsInert(t *testing.T) {
	esc := inert.Line(hostile) // \x1b]52;c;aGk=\x07\u009b\u202e\u2028\x7f\rEND
	escDir := inert.Line("dir" + hostile)
	cases := []struct {
		name    string
		files   map[string]string // relative to the world's folder
		inDir   bool              // run in the project with the hostile name
		inRoot  bool              // --config-root a folder with the hostile name
		before  [][]string        // commands run first
		args    []string
		want    []string // in stdout or stderr
		wantErr bool     // want is in stderr
	}{
		{name: "rules list: description", files: map[string]string{"plain/.charter/rules/r.md": rule},
			args: []string{"rules", "list"}, want: []string{esc}},
		{name: "rules show: description and body", files: map[string]string{"plain/.charter/rules/r.md": rule},
			args: []string{"rules", "show", "r"}, want: []string{"description:  " + esc, "Body " + esc + " body."}},
		{name: "rules list --path: the file named", files: map[string]string{"plain/.charter/rules/r.md": "---\nglobs: [\"*.go\"]\n---\nx\n"},
			args: []string{"rules", "list", "--path", "a" + hostile + ".txt"}, want: []string{"a" + esc + ".txt"}},
		{name: "skills list: description", files: map[string]string{"plain/.charter/skills/review/SKILL.md": skill},
			args: []string{"skills", "list"}, want: []string{esc}},
		{name: "skills show: description", files: map[string]string{"plain/.charter/skills/review/SKILL.md": skill},
			args: []string{"skills", "show", "review"}, want: []string{"description:  " + esc}},
		{name: "commands list: description", files: map[string]string{"plain/.charter/commands/ship.md": command},
			args: []string{"commands", "list"}, want: []string{esc}},
		{name: "commands show: argument-hint", files: map[string]string{"plain/.charter/commands/ship.md": command},
			args: []string{"commands", "show", "ship"}, want: []string{"argument-hint: " + esc}},
		{name: "subagents list: description", files: map[string]string{"plain/.charter/subagents/checker.md": subagent},
			args: []string{"subagents", "list"}, want: []string{esc}},
		{name: "subagents show: model", files: map[string]string{"plain/.charter/subagents/checker.md": subagent},
			args: []string{"subagents", "show", "checker"}, want: []string{"model:        " + esc}},
		{name: "completion: description", files: map[string]string{"plain/.charter/rules/r.md": rule},
			args: []string{"__complete", "--", "rules", "show", ""}, want: []string{`\x1b]52;c;aGk=\x07\u009b\u202e`}},
		{name: "error: a bad rule file name", files: map[string]string{"plain/.charter/rules/" + hostile + ".md": "x\n"},
			args: []string{"rules", "list"}, want: []string{esc + ".md"}, wantErr: true},
		{name: "error: a bad skill folder name", files: map[string]string{"plain/.charter/skills/" + hostile + "/SKILL.md": skill},
			args: []string{"skills", "list"}, want: []string{esc}, wantErr: true},
		{name: "doctor: a bad rule file name", files: map[string]string{"plain/.charter/rules/" + hostile + ".md": "x\n"},
			args: []string{"doctor"}, want: []string{esc + ".md"}},
		{name: "import: the native file's name", files: map[string]string{"plain/.claude/rules/" + hostile + ".md": "x\n"},
			args: []string{"import", "--from", "claude", "--project", "--dry-run"}, want: []string{esc + ".md"}},
		{name: "apply: report paths", inDir: true, files: map[string]string{"dir" + hostile + "/repo/.charter/rules/r.md": "x\n"},
			args: []string{"apply", "--project", "--agent", "claude"}, want: []string{escDir + "/repo/.claude/rules/r.md"}},
		{name: "apply --dry-run: the diff of a rule's body", files: map[string]string{"plain/.charter/rules/r.md": rule},
			args: []string{"apply", "--project", "--agent", "codex", "--dry-run"}, want: []string{"Body " + esc + " body."}},
		{name: "rules new: the path created", inDir: true,
			args: []string{"rules", "new", "x", "--project"}, want: []string{escDir}},
		{name: "settings get: value", files: map[string]string{"plain/.charter/settings.yaml": "gates:\n  tests:\n    command: \"" + bidiValue + "\"\n"},
			args: []string{"settings", "get", "gates.tests.command"}, want: []string{`echo \u202eok\u2066`}},
		{name: "settings list: value", files: map[string]string{"plain/.charter/settings.yaml": "gates:\n  tests:\n    command: \"" + bidiValue + "\"\n"},
			args: []string{"settings", "list", "gates"}, want: []string{`gates.tests.command = echo \u202eok\u2066`}},
		{name: "settings list --show-origin: path", inDir: true, files: map[string]string{"dir" + hostile + "/repo/.charter/settings.yaml": "rules:\n  tier: minimal\n"},
			args: []string{"settings", "list", "rules.tier", "--show-origin"}, want: []string{escDir}},
		{name: "settings list: an unknown key", files: map[string]string{"plain/.charter/settings.yaml": hostileYAML + ": 1\n"},
			args: []string{"settings", "list", "rules"}, want: []string{esc + " is not a charter setting"}, wantErr: true},
		{name: "error: a malformed settings file's path", inDir: true, files: map[string]string{"dir" + hostile + "/repo/.charter/settings.yaml": "rules: [\n"},
			args: []string{"settings", "get", "rules.tier"}, want: []string{escDir}, wantErr: true},
		{name: "gate run: command and output", files: map[string]string{"home/.agentkit/charter/settings.yaml": hostileGate},
			args: []string{"gate", "run"}, want: []string{`exit 1 # \u202e`, "| " + esc}},
		{name: "gate run --verbose: streamed output", files: map[string]string{"home/.agentkit/charter/settings.yaml": hostileGate},
			args: []string{"gate", "run", "--verbose"}, want: []string{"| " + esc}},
		{name: "trust: value and path", inDir: true, files: map[string]string{"dir" + hostile + "/repo/.charter/settings.yaml": "gates:\n  tests:\n    command: \"" + bidiValue + "\"\n"},
			args: []string{"trust"}, want: []string{`gates.tests.command = echo \u202eok\u2066`, escDir}},
		{name: "trust --list: root", inDir: true, files: map[string]string{"dir" + hostile + "/repo/.charter/settings.yaml": "gates:\n  tests:\n    command: \"" + bidiValue + "\"\n"},
			before: [][]string{{"trust"}}, args: []string{"trust", "--list"}, want: []string{escDir}},
		{name: "trust --revoke: root", inDir: true,
			args: []string{"trust", "--revoke"}, want: []string{escDir + "/repo was not trusted"}},
		{name: "mcp --print-config: the config root", inRoot: true,
			args: []string{"mcp", "--print-config", "claude"}, want: []string{escDir + "' mcp"}},
		{name: "ping: project and trust", inDir: true, files: map[string]string{"dir" + hostile + "/repo/.charter/settings.yaml": "gates:\n  tests:\n    command: \"" + bidiValue + "\"\n"},
			args: []string{"ping"}, want: []string{escDir + "/repo\n"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newInertWorld(t)
			w.write(t, c.files)
			dir := w.plain
			if c.inDir {
				dir = w.hostile
			}
			for _, args := range c.before {
				if r := w.run(dir, args...); r.code != 0 {
					t.Fatalf("%v: exit %d\n%s", args, r.code, r.stderr)
				}
			}
			args := c.args
			if c.inRoot {
				args = append([]string{"--config-root", filepath.Dir(w.hostile)}, args...)
			}
			r := w.run(dir, args...)
			for stream, out := range map[string]string{"stdout": r.stdout, "stderr": r.stderr} {
				if i, ch := rawControl(out); i >= 0 {
					t.Errorf("%s holds a raw %U at byte %d:\n%q", stream, ch, i, out)
				}
			}
			got := r.stdout
			if c.wantErr {
				got = r.stderr
			}
			for _, want := range c.want {
				if !strings.Contains(got, want) {
					t.Errorf("exit %d: the output does not show %q\nstdout %q\nstderr %q", r.code, want, r.stdout, r.stderr)
				}
			}
		})
	}
}

// JSON is for programs: the same text stays exact there.
func TestJSONKeepsTextExact(t *testing.T) {
	w := newInertWorld(t)
	w.write(t, map[string]string{
		"plain/.charter/rules/r.md":    rule,
		"plain/.charter/settings.yaml": "gates:\n  tests:\n    command: \"" + bidiValue + "\"\n",
	})
	var list struct {
		Items []struct{ Description string }
	}
	r := w.run(w.plain, "rules", "list", "--json")
	if err := json.Unmarshal([]byte(r.stdout), &list); err != nil || len(list.Items) != 1 || list.Items[0].Description != hostile {
		t.Errorf("rules list --json: %v %q", err, r.stdout)
	}
	var show struct{ Body string }
	r = w.run(w.plain, "rules", "show", "r", "--json")
	if err := json.Unmarshal([]byte(r.stdout), &show); err != nil || show.Body != "Body "+hostile+" body.\n" {
		t.Errorf("rules show --json: %v %q", err, r.stdout)
	}
	var key struct{ Value string }
	r = w.run(w.plain, "settings", "get", "gates.tests.command", "--json")
	if err := json.Unmarshal([]byte(r.stdout), &key); err != nil || key.Value != bidiValue {
		t.Errorf("settings get --json: %v %q", err, r.stdout)
	}

	// An error: exact in the document, inert on stderr.
	w.write(t, map[string]string{"plain/.charter/rules/" + hostile + ".md": "x\n"})
	var doc struct{ Error struct{ Message string } }
	r = w.run(w.plain, "rules", "list", "--json")
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil || !strings.Contains(doc.Error.Message, hostile+".md") {
		t.Errorf("rules list --json: %v %q", err, r.stdout)
	}
	if i, ch := rawControl(r.stderr); i >= 0 || !strings.Contains(r.stderr, inert.Line(hostile)) {
		t.Errorf("stderr holds %U at %d or lacks the escaped name: %q", ch, i, r.stderr)
	}
}
