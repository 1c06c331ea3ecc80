package commands

import (
	"reflect"
	"slices"
	"strings"
	"sync"
)

// wholeGrammar names the commands that always parse with the whole CLI:
// they print or walk it.
var wholeGrammar = []string{"help", "completion", "__complete"}

// commandFields maps each top-level command's name to its CLI field; the
// other fields are the global flags.
var commandFields = sync.OnceValues(func() (map[string]reflect.StructField, []reflect.StructField) {
	cmds := map[string]reflect.StructField{}
	var flags []reflect.StructField
	t := reflect.TypeFor[CLI]()
	for i := range t.NumField() {
		f := t.Field(i)
		if _, ok := f.Tag.Lookup("cmd"); !ok {
			flags = append(flags, f)
			continue
		}
		name := f.Tag.Get("name")
		if name == "" {
			name = strings.ToLower(f.Name) // Kong's name for a one-word field
		}
		cmds[name] = f
	}
	return cmds, flags
})

// quickCommand returns the type of a grammar made of the global flags and
// the one command that args name, when args name one (its first word that
// is a command's name) and ask for no help. A parse by that grammar means
// what a parse by the whole CLI means, since its commands are a subset of
// the CLI's; anything it cannot parse is parsed again by the whole CLI.
func quickCommand(args []string) (reflect.Type, bool) {
	if i := slices.Index(args, "--"); i >= 0 {
		args = args[:i]
	}
	cmds, flags := commandFields()
	for _, arg := range args {
		if arg == "-h" || arg == "--help" || strings.HasPrefix(arg, "--help=") {
			return nil, false
		}
	}
	for _, arg := range args {
		f, ok := cmds[arg]
		if !ok {
			continue
		}
		if slices.Contains(wholeGrammar, arg) {
			return nil, false
		}
		f.Index, f.Offset = nil, 0
		return reflect.StructOf(append(slices.Clip(flags), f)), true
	}
	return nil, false
}

// globals copies the global flags of a parsed grammar into cli.
func globals(parsed, cli reflect.Value) {
	_, flags := commandFields()
	for _, f := range flags {
		cli.FieldByIndex(f.Index).Set(parsed.FieldByName(f.Name))
	}
}
