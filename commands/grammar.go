package commands

import (
	"reflect"
	"slices"
	"strings"

	"github.com/agentkit/charter/core/lazy"
)

// wholeGrammar names the commands that always parse with the whole CLI:
// they print or walk it.
var wholeGrammar = []string{"help", "man", "completion", "__complete"}

// split parts a grammar struct's fields: its commands by name, and the rest
// (flags and arguments). Callers must not change what it returns: the
// CLI's parts are computed once, since every run looks at them up to three
// times (quickCommand, prune, globals).
func split(t reflect.Type) (map[string]reflect.StructField, []reflect.StructField) {
	if t == reflect.TypeFor[CLI]() {
		p := cliParts.Get()
		return p.cmds, p.rest
	}
	return splitType(t)
}

// grammarParts is what split returns.
type grammarParts struct {
	cmds map[string]reflect.StructField
	rest []reflect.StructField
}

var cliParts = lazy.Value[grammarParts]{Make: func() grammarParts {
	cmds, rest := splitType(reflect.TypeFor[CLI]())
	return grammarParts{cmds, rest}
}}

func splitType(t reflect.Type) (map[string]reflect.StructField, []reflect.StructField) {
	cmds := map[string]reflect.StructField{}
	var rest []reflect.StructField
	for i := range t.NumField() {
		f := t.Field(i)
		if _, ok := f.Tag.Lookup("cmd"); !ok {
			rest = append(rest, f)
			continue
		}
		cmds[cmdName(f)] = f
	}
	return cmds, rest
}

// cmdName is the name split gives a command field.
func cmdName(f reflect.StructField) string {
	if name := f.Tag.Get("name"); name != "" {
		return name
	}
	return strings.ToLower(f.Name) // Kong's name for a one-word field
}

// quickCommand returns the type of a grammar made of the global flags and
// the one command path that args name (at each level, the first later word
// that names a command), when args name one and ask for no help. A parse by
// that grammar means what a parse by the whole CLI means, since its
// commands are a subset of the CLI's; anything it cannot parse is parsed
// again by the whole CLI.
func quickCommand(args []string) (reflect.Type, bool) {
	if i := slices.Index(args, "--"); i >= 0 {
		args = args[:i]
	}
	for _, arg := range args {
		if arg == "-h" || arg == "--help" || strings.HasPrefix(arg, "--help=") {
			return nil, false
		}
	}
	cmds, _ := split(reflect.TypeFor[CLI]())
	for _, arg := range args {
		if _, ok := cmds[arg]; ok && slices.Contains(wholeGrammar, arg) {
			return nil, false
		}
	}
	return prune(reflect.TypeFor[CLI](), args)
}

// prune returns t with only the command that args name at this level, and
// that command pruned the same way below. A command group with methods of
// its own (hooks) keeps its type whole, since a new type would lose them.
func prune(t reflect.Type, args []string) (reflect.Type, bool) {
	cmds, rest := split(t)
	for i, arg := range args {
		f, ok := cmds[arg]
		if !ok {
			continue
		}
		if prunable(f.Type) {
			if sub, ok := prune(f.Type, args[i+1:]); ok {
				f.Type = sub
			}
		}
		f.Index, f.Offset = nil, 0
		return reflect.StructOf(append(slices.Clip(rest), f)), true
	}
	return t, false
}

// prunable reports whether a command group can be rebuilt as a new struct
// type: no methods, and only exported, named fields.
func prunable(t reflect.Type) bool {
	if reflect.PointerTo(t).NumMethod() > 0 {
		return false
	}
	for i := range t.NumField() {
		if f := t.Field(i); !f.IsExported() || f.Anonymous {
			return false
		}
	}
	return true
}

// globals copies the global flags of a parsed grammar into cli.
func globals(parsed, cli reflect.Value) {
	_, flags := split(reflect.TypeFor[CLI]())
	for _, f := range flags {
		cli.FieldByIndex(f.Index).Set(parsed.FieldByName(f.Name))
	}
}
