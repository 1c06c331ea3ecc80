package commands

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/alecthomas/kong"
	"github.com/spf13/afero"
)

// A command line parsed by the one-command grammar selects the same
// command with the same flags and arguments as the whole CLI, and lines it
// must not take (help, completion, no command) go to the whole CLI.
func TestQuickGrammarParsesAsTheWholeCLI(t *testing.T) {
	app := newApp(Build{Version: "t"}, strings.NewReader(""), nil, nil, []string{"HOME=" + t.TempDir()}, afero.NewOsFs(), nil)
	for _, line := range []string{
		"settings get rules.tier",
		"--config-root /r settings set gates.coverage.min 80 --project",
		"settings list --show-origin --json",
		"--no-project ping --json",
		"apply --check --agent claude",
		"gate run --gate tests,lint",
		"gate hook claude-stop",
		"--project-dir /p doctor",
		"detect --json",
		"version",
		"settings unset -- rules.tier",
	} {
		args := strings.Fields(line)
		typ, ok := quickCommand(args)
		if !ok {
			t.Errorf("%s: no quick grammar", line)
			continue
		}
		pruned := reflect.New(typ)
		pp, err := app.parser(context.Background(), pruned.Interface())
		if err != nil {
			t.Fatal(err)
		}
		qctx, err := pp.Parse(args)
		if err != nil {
			t.Errorf("%s: quick grammar: %v", line, err)
			continue
		}
		var whole CLI
		wp, err := app.parser(context.Background(), &whole)
		if err != nil {
			t.Fatal(err)
		}
		wctx, err := wp.Parse(args)
		if err != nil {
			t.Fatalf("%s: whole CLI: %v", line, err)
		}
		var quick CLI
		globals(pruned.Elem(), reflect.ValueOf(&quick).Elem())
		if qctx.Command() != wctx.Command() || !reflect.DeepEqual(quick.ConfigRoot, whole.ConfigRoot) ||
			!reflect.DeepEqual(quick.ProjectDir, whole.ProjectDir) || quick.NoProject != whole.NoProject || quick.JSON != whole.JSON ||
			!reflect.DeepEqual(qctx.Selected().Target.Interface(), wctx.Selected().Target.Interface()) {
			t.Errorf("%s: quick %q %+v %+v, whole %q %+v %+v", line, qctx.Command(), quick, qctx.Selected().Target,
				wctx.Command(), whole, wctx.Selected().Target)
		}
		for n := qctx.Model.Node; n != nil; {
			var cmds []*kong.Node
			for _, c := range n.Children {
				if c.Type == kong.CommandNode {
					cmds = append(cmds, c)
				}
			}
			if len(cmds) > 1 {
				t.Errorf("%s: the quick grammar keeps %d commands below %q", line, len(cmds), n.Name)
			}
			n = nil
			if len(cmds) == 1 {
				n = cmds[0]
			}
		}
		quickFlags := map[string]reflect.Value{}
		for _, f := range qctx.Flags() {
			quickFlags[f.Name] = f.Target
		}
		for _, f := range wctx.Flags() {
			q, ok := quickFlags[f.Name]
			if !ok || !reflect.DeepEqual(q.Interface(), f.Target.Interface()) {
				t.Errorf("%s: --%s is %v (%v) by the quick grammar, %v by the whole CLI", line, f.Name, q, ok, f.Target)
			}
		}
	}
	for _, line := range []string{"", "--help", "settings get -h", "help settings", "completion bash", "__complete charter se",
		"--json", "nosuch", "settings get --help=true", "-- settings"} {
		if _, ok := quickCommand(strings.Fields(line)); ok {
			t.Errorf("%q takes the quick grammar", line)
		}
	}
}

// A line the one-command grammar cannot parse is parsed by the whole CLI:
// the value of --config-root may be a command's name.
func TestQuickGrammarFallsBack(t *testing.T) {
	r := runCharter(t, t.TempDir(), "", false, "--config-root", "settings", "--json", "ping")
	if r.code != 0 || !strings.Contains(r.stdout, `"source": "flag"`) || r.stderr != "" {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}
