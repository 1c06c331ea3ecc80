package commands

import (
	"bytes"
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core/coretest"
)

// helpBy renders args (a help request) by the grammar given, the way run
// does, and returns stdout.
func helpBy(t *testing.T, grammar any, args []string) string {
	t.Helper()
	return helpByBuild(t, Build{Version: "t"}, grammar, args)
}

func helpByBuild(t *testing.T, build Build, grammar any, args []string) string {
	t.Helper()
	var out, errb bytes.Buffer
	a := newApp(build, strings.NewReader(""), &out, &errb, coretest.New(t).Environ(), afero.NewMemMapFs(), args)
	parser, err := a.parser(context.Background(), grammar)
	if err != nil {
		t.Fatalf("grammar: %v", err)
	}
	func() {
		defer func() {
			r := recover()
			if e, ok := r.(*exitError); !ok || e.status != ExitOK || e.err != nil {
				t.Fatalf("%v: want the help's quiet exit 0, got %#v", args, r)
			}
		}()
		_, err := parser.Parse(args)
		t.Fatalf("%v: the help did not exit (parse error %v)", args, err)
	}()
	if errb.Len() > 0 {
		t.Fatalf("%v: stderr %q", args, errb.String())
	}
	return out.String()
}

// The command tree renders charter's help byte for byte as the whole
// grammar does, at any width, and run takes it for --help, -h and no
// arguments.
func TestRootHelpTree(t *testing.T) {
	for _, cols := range []string{"80", "40", "132", "300"} {
		t.Setenv("COLUMNS", cols)
		for _, args := range [][]string{{"--help"}, {"-h"}} {
			whole := helpBy(t, &CLI{}, args)
			tree := helpBy(t, reflect.New(helpTree.Get()).Interface(), args)
			if tree != whole {
				t.Fatalf("COLUMNS=%s %v: the command tree's help differs from the whole grammar's:\n--- tree\n%s\n--- whole\n%s", cols, args, tree, whole)
			}
			for _, want := range []string{"settings get", "gate hook claude-stop", "--project-dir=DIR", "Help topics"} {
				if !strings.Contains(whole, want) {
					t.Fatalf("COLUMNS=%s %v: help without %q:\n%s", cols, args, want, whole)
				}
			}
		}
		whole := helpBy(t, &CLI{}, []string{"--help"})
		for _, args := range [][]string{{}, {"--help"}, {"-h"}} {
			if !rootHelpOnly(args, false) {
				t.Fatalf("%v: not taken as charter's own help", args)
			}
			if got := runCharter(t, t.TempDir(), "", false, args...); got.code != 0 || got.stdout != whole {
				t.Fatalf("COLUMNS=%s charter %v: exit %d, stdout differs from the whole grammar's help:\n%s", cols, args, got.code, got.stdout)
			}
		}
	}
	for _, args := range [][]string{{"--help", "--json"}, {"settings", "--help"}, {"--no-project", "--help"}, {"help"}} {
		if rootHelpOnly(args, jsonRequested(args)) {
			t.Fatalf("%v: taken as charter's own text help", args)
		}
	}
}

// The tree keeps every command and its tags, and no command's flags.
func TestHelpTreeShape(t *testing.T) {
	tree := helpTree.Get()
	settings, ok := tree.FieldByName("Settings")
	if !ok || settings.Tag != reflect.TypeFor[CLI]().Field(indexOf(t, "Settings")).Tag {
		t.Fatalf("Settings lost or retagged: %v", settings)
	}
	get, ok := settings.Type.FieldByName("Get")
	if !ok || get.Type != reflect.TypeFor[struct{}]() {
		t.Fatalf("settings get is not an empty leaf: %v", get)
	}
	if _, ok := tree.FieldByName("JSON"); !ok {
		t.Fatal("the global flags are gone")
	}
}

func indexOf(t *testing.T, name string) int {
	f, ok := reflect.TypeFor[CLI]().FieldByName(name)
	if !ok {
		t.Fatalf("CLI has no %s", name)
	}
	return f.Index[0]
}
