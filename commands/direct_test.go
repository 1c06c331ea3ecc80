package commands

import (
	"bytes"
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core/coretest"
)

// leafPaths lists every command path of t that ends in a leaf.
func leafPaths(t reflect.Type, prefix []string) [][]string {
	cmds, _ := split(t)
	if len(cmds) == 0 {
		return [][]string{prefix}
	}
	var out [][]string
	for name, f := range cmds {
		out = append(out, leafPaths(f.Type, append(slices.Clip(prefix), name))...)
	}
	return out
}

// kongParse parses args by the whole grammar, as run does when no quicker
// path takes them: the command chosen (nil when Kong refuses args or
// exits, as for help) and the global flags.
func kongParse(t *testing.T, args []string) (cmd any, cli *CLI) {
	t.Helper()
	var out bytes.Buffer
	a := newApp(Build{Version: "t"}, strings.NewReader(""), &out, &out, coretest.New(t).Environ(), afero.NewMemMapFs(), args)
	cli = &CLI{}
	parser, err := a.parser(context.Background(), cli)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(*exitError); !ok {
				panic(r)
			}
			cmd = nil
		}
	}()
	kctx, err := parser.Parse(args)
	if err != nil {
		return nil, cli
	}
	return kctx.Selected().Target.Interface(), cli
}

// Whatever directCommand takes, Kong takes the same way: the same command
// with the same fields and the same global flags. Every command path is
// tried with none to three words and with the flags it may see, and the
// commands a start-up is measured on must be taken.
func TestDirectCommandAsKong(t *testing.T) {
	words := [][]string{{}, {"rules.tier"}, {""}, {"a b", "c"}, {"x", "y", "z"}, {"settings"}}
	flags := [][]string{{}, {"--json"}, {"--no-project", "--json"}, {"--json", "--json"}, {"--show-origin"},
		{"--json=true"}, {"-h"}, {"--"}, {"--server"}, {"--project", "--require", "x"},
		{"--project"}, {"--project", "--project"}, {"--dry-run", "--check"}, {"--force", "--project"},
		{"--agent", "claude,codex"}, {"--agent", "claude", "--agent", "codex"}, {"--agent", "a,,b"},
		{"--agent", "--project"}, {"--agent"}, {"--agent=claude"}, {"--agent", `a\,b`}, {"--agent", ""},
		{"--project-dir", "."}, {"--project-dir", "/p q", "--config-root", "r"}, {"--project-dir"},
		{"--project-dir", "-x"}, {"--project-dir", "a", "--project-dir", "b"}, {"--project-dir=."},
		{"--config-root", "", "--json"}, {"--revoke"}, {"--list"}, {"--global"},
		{"--agent", "a, b"}, {"--agent", "claude"}, {"--", "--project"}, {"---project"}, {"--agent", "a,b", "--"}}
	taken := map[string]bool{}
	var lines [][]string
	for _, path := range leafPaths(reflect.TypeFor[CLI](), nil) {
		for _, w := range words {
			for _, f := range flags {
				line := slices.Concat(path, w)
				lines = append(lines, slices.Concat(line, f), slices.Concat(f, line))
				if len(f) > 0 && len(line) > 0 {
					lines = append(lines, slices.Concat(line[:1], f, line[1:]))
				}
			}
		}
	}
	lines = append(lines, []string{"gate"}, []string{"settings"}, []string{"rules.tier", "settings", "get"},
		[]string{"settingsget"}, []string{"mcpservers", "list"}, []string{"-"}, nil,
		strings.Fields("apply --project --project-dir . --agent claude,codex,cursor,copilot"),
		strings.Fields("--project-dir . apply --dry-run"), strings.Fields("--config-root r ping"))
	for _, args := range lines {
		cmd, cli, ok := directCommand(args)
		if !ok {
			continue
		}
		taken[strings.Join(args, " ")] = true
		want, wantCLI := kongParse(t, args)
		if want == nil {
			t.Errorf("charter %q: taken without Kong, which refuses it", args)
			continue
		}
		got := reflect.ValueOf(cmd).Elem().Interface()
		if !reflect.DeepEqual(got, want) || cli.JSON != wantCLI.JSON || cli.NoProject != wantCLI.NoProject ||
			!reflect.DeepEqual(cli.ConfigRoot, wantCLI.ConfigRoot) || !reflect.DeepEqual(cli.ProjectDir, wantCLI.ProjectDir) || bool(wantCLI.Version) {
			t.Errorf("charter %q: without Kong %#v (%+v), Kong %#v (%+v)", args, got, cli, want, wantCLI)
		}
	}
	for _, line := range []string{"settings get rules.tier", "detect --json", "ping --json", "--json settings get rules.tier", "settings list", "--no-project --json ping",
		"apply --project --project-dir . --agent claude,codex,cursor,copilot", "--project-dir . apply --dry-run", "--config-root r ping"} {
		if !taken[line] {
			t.Errorf("charter %s: not taken without Kong", line)
		}
	}
	t.Logf("%d command lines taken without Kong", len(taken))
	if len(taken) < 50 {
		t.Errorf("only %d command lines taken without Kong", len(taken))
	}
}

// A command run without Kong prints what it prints through Kong.
func TestDirectCommandRuns(t *testing.T) {
	home := t.TempDir()
	for _, line := range []string{"settings get rules.tier", "detect --json", "ping --json", "settings get nope"} {
		args := strings.Fields(line)
		direct := runCharter(t, home, "", false, args...)
		// The same words with a flag that changes nothing, which
		// directCommand leaves to Kong.
		viaKong := runCharter(t, home, "", false, append(args, "--no-project=false")...)
		if _, _, ok := directCommand(args); !ok {
			t.Errorf("charter %s: not taken without Kong", line)
		}
		if direct.code != viaKong.code || direct.stdout != viaKong.stdout || direct.stderr != viaKong.stderr {
			t.Errorf("charter %s: without Kong %+v, through Kong %+v", line, direct, viaKong)
		}
	}
}

// commandNamed finds what split finds, in every group of the grammar, for
// each command name and for words that name none.
func TestCommandNamedAsSplit(t *testing.T) {
	var walk func(reflect.Type)
	walk = func(ty reflect.Type) {
		cmds, rest := split(ty)
		plain := true
		for _, f := range rest {
			plain = plain && !f.Anonymous && onlyTags(f.Tag, directFlagTags)
		}
		words := []string{"", "nope", "Settings", "SETTINGS", "versioncmd"}
		for name := range cmds {
			words = append(words, name)
		}
		for _, w := range words {
			want, ok := cmds[w]
			f, found, p := commandNamed(ty, w)
			group := isGroup(ty)
			if group != (len(cmds) > 0) || group && (found != ok || p != plain || found && f.Name != want.Name) {
				t.Errorf("%s %q: commandNamed gives %s (group %v, found %v, plain %v); split %s (found %v, plain %v)",
					ty, w, f.Name, group, found, p, want.Name, ok, plain)
			}
		}
		for _, f := range cmds {
			walk(f.Type)
		}
	}
	walk(reflect.TypeFor[CLI]())
}

func TestListFlagTags(t *testing.T) {
	if want := append(slices.Clip(directFlagTags), "sep"); !slices.Equal(listFlagTags, want) {
		t.Errorf("listFlagTags is %q, want directFlagTags and sep: %q", listFlagTags, want)
	}
}
