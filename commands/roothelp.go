package commands

import (
	"reflect"
	"slices"
	"sync"
)

// rootHelpOnly reports whether args ask for charter's own help and nothing
// else (bare charter is --help), in text: the one help that lists every
// command but none of their flags or arguments.
func rootHelpOnly(args []string, json bool) bool {
	return !json && (len(args) == 0 || slices.Equal(args, []string{"--help"}) || slices.Equal(args, []string{"-h"}))
}

// helpTree is the CLI as charter's own help sees it: the global flags and
// every command with its tags, but no command's flags or arguments, and
// each leaf an empty struct. Kong builds it in a fraction of the whole
// grammar's time and renders the same text from it (TestRootHelpTree).
var helpTree = sync.OnceValue(func() reflect.Type { return commandTree(reflect.TypeFor[CLI](), true) })

// commandTree keeps t's commands (and at the root its flags), each command
// group pruned the same way below; a leaf becomes struct{}.
func commandTree(t reflect.Type, root bool) reflect.Type {
	cmds, rest := split(t)
	var fields []reflect.StructField
	if root {
		fields = slices.Clip(rest)
	}
	// split returns a map: keep the grammar's order of commands.
	for i := range t.NumField() {
		f := t.Field(i)
		if _, ok := f.Tag.Lookup("cmd"); !ok {
			continue
		}
		if sub, _ := split(f.Type); len(sub) > 0 {
			f.Type = commandTree(f.Type, false)
		} else {
			f.Type = reflect.TypeFor[struct{}]()
		}
		f.Index, f.Offset = nil, 0
		fields = append(fields, f)
	}
	if len(cmds) == 0 {
		return reflect.TypeFor[struct{}]()
	}
	return reflect.StructOf(fields)
}
