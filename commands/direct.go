package commands

import (
	"context"
	"reflect"
	"slices"
	"strings"
)

// runner is a command that needs nothing of Kong's to run.
type runner interface {
	Run(ctx context.Context, a *App) error
}

// Tag keys that change nothing when a flag is not given and an argument
// is a plain string: a command whose fields carry only these can be set
// from the words alone. Anything else (default, env, enum, required,
// type, embed…) is Kong's to apply.
var (
	directFlagTags = []string{"name", "help", "short", "placeholder", "complete", "xor", "group", "hidden"}
	directArgTags  = []string{"arg", "optional", "help", "complete", "name", "placeholder"}
	// A list flag also takes its separator, which only matters when it
	// is given. Written out, not appended, so that the package has no
	// initialisation to run (TestListFlagTags holds the two together).
	listFlagTags = []string{"name", "help", "short", "placeholder", "complete", "xor", "group", "hidden", "sep"}
)

// directFlags are the global flags the direct path reads.
type directFlags struct {
	JSON, NoProject        bool
	ConfigRoot, ProjectDir *string
}

// directCommand reads args without building a grammar when they are a
// command path of the CLI, its positional words and its own flags in their
// plainest spelling (--flag, --list a,b), with the global flags --json,
// --no-project, --config-root PATH and --project-dir DIR, and the command
// is one whose value Kong would fill from those alone (directLeaf). It
// returns the command, ready to run, and the global flags; ok false leaves
// args to Kong, which also says every error. TestDirectCommandAsKong holds
// that whatever it takes, Kong takes the same way.
func directCommand(args []string) (cmd runner, cli directFlags, ok bool) {
	t := reflect.TypeFor[CLI]()
	if reflect.PointerTo(t).NumMethod() > 0 {
		return nil, cli, false // a hook on the root: Kong calls it
	}
	var words []string
	var flags []leafFlag
	leaf := false
	for i := 0; i < len(args); i++ {
		arg := args[i]
		switch {
		case arg == "--json" && !cli.JSON:
			cli.JSON = true
		case arg == "--no-project" && !cli.NoProject:
			cli.NoProject = true
		case arg == "--config-root" || arg == "--project-dir":
			dst := &cli.ConfigRoot
			if arg == "--project-dir" {
				dst = &cli.ProjectDir
			}
			if *dst != nil || i+1 == len(args) || !plainValue(args[i+1]) {
				return nil, cli, false
			}
			i++
			*dst = &args[i]
		case arg == "" || arg[0] != '-':
			if leaf {
				words = append(words, arg)
				continue
			}
			f, found, plain := commandNamed(t, arg)
			if !plain || !found || slices.Contains(wholeGrammar, arg) || !kongName(f) || !plainStruct(f.Type) {
				return nil, cli, false
			}
			t = f.Type
			leaf = !isGroup(t)
		case leaf && len(arg) > 2 && strings.HasPrefix(arg, "--") && !strings.Contains(arg, "="):
			fl := leafFlag{name: arg[2:]}
			if i+1 < len(args) {
				fl.next = args[i+1]
			}
			flags = append(flags, fl)
			if listFlag(t, fl.name) {
				i++
			}
		default:
			return nil, cli, false
		}
	}
	if !leaf {
		return nil, cli, false // a group's help, or no command: Kong says
	}
	v := reflect.New(t)
	cmd, ok = v.Interface().(runner)
	if !ok || !directLeaf(t, v.Elem(), words, flags) {
		return nil, cli, false
	}
	return cmd, cli, true
}

// leafFlag is a --name the leaf command was given, with the word after it
// (its value, when the flag takes one).
type leafFlag struct{ name, next string }

// plainValue: a flag's value Kong reads as it is, never as a flag or an
// escape.
func plainValue(s string) bool {
	return s != "" && s[0] != '-' && !strings.Contains(s, `\`)
}

// listFlag reports whether t's flag --name takes the word after it.
func listFlag(t reflect.Type, name string) bool {
	f, ok := flagNamed(t, name)
	return ok && f.Type.Kind() != reflect.Bool
}

// flagNamed is t's field of the flag --name: only a field named by its
// name tag, whose spelling is Kong's as it is.
func flagNamed(t reflect.Type, name string) (reflect.StructField, bool) {
	for i := range t.NumField() {
		f := t.Field(i)
		if _, isArg := f.Tag.Lookup("arg"); !isArg && name != "" && f.Tag.Get("name") == name {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// isGroup reports whether t has commands below it.
func isGroup(t reflect.Type) bool {
	for i := range t.NumField() {
		if _, ok := t.Field(i).Tag.Lookup("cmd"); ok {
			return true
		}
	}
	return false
}

// commandNamed looks at the group t's fields as split does, without
// building its maps (a start-up cost): f is the command split names word,
// and plain tells whether t's other fields are all flags Kong leaves unset
// when not given.
func commandNamed(t reflect.Type, word string) (f reflect.StructField, found, plain bool) {
	plain = true
	for i := range t.NumField() {
		fi := t.Field(i)
		if _, ok := fi.Tag.Lookup("cmd"); !ok {
			plain = plain && !fi.Anonymous && onlyTags(fi.Tag, directFlagTags)
			continue
		}
		if !found && cmdNameIs(fi, word) {
			f, found = fi, true
		}
	}
	return f, found, plain
}

// cmdNameIs is cmdName(f) == word without making the lowered name.
func cmdNameIs(f reflect.StructField, word string) bool {
	if name := f.Tag.Get("name"); name != "" {
		return name == word
	}
	if len(f.Name) != len(word) {
		return false
	}
	for i := range len(word) {
		c := f.Name[i]
		if c >= 0x80 {
			return cmdName(f) == word
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != word[i] {
			return false
		}
	}
	return true
}

// plainStruct: a struct with no methods Kong calls (hooks, Validate); Run
// and Help are only called or read for the command chosen. Counted, not
// named: naming a method builds its function type, a start-up cost.
func plainStruct(t reflect.Type) bool {
	if t.Kind() != reflect.Struct {
		return false
	}
	p := reflect.PointerTo(t)
	known := 0
	if p.Implements(reflect.TypeFor[runner]()) {
		known++
	}
	if p.Implements(reflect.TypeFor[interface{ Help() string }]()) {
		known++
	}
	return p.NumMethod() == known
}

// kongName: the name split gives the command is Kong's too (a name tag, or
// a one-word field name, which Kong lowercases as split does).
func kongName(f reflect.StructField) bool {
	if f.Tag.Get("name") != "" {
		return true
	}
	for _, r := range f.Name[1:] {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	return true
}

// directLeaf sets the leaf command v of type t from its positional words
// and flags, when every argument is a plain string, every flag given is a
// bool or a comma-separated list named by its name tag, every other field
// is a flag left unset, and the words fill the required arguments without
// one too many.
func directLeaf(t reflect.Type, v reflect.Value, words []string, flags []leafFlag) bool {
	for j, fl := range flags {
		f, ok := flagNamed(t, fl.name)
		if !ok || slices.ContainsFunc(flags[:j], func(o leafFlag) bool { return o.name == fl.name }) {
			return false // unknown, or given again: Kong decides
		}
		if _, xor := f.Tag.Lookup("xor"); xor {
			return false
		}
		switch {
		case f.Type.Kind() == reflect.Bool:
			v.FieldByIndex(f.Index).SetBool(true)
		case f.Type == reflect.TypeFor[[]string]() && f.Tag.Get("sep") == "," && plainValue(fl.next):
			list := strings.Split(fl.next, ",")
			if slices.Contains(list, "") {
				return false
			}
			v.FieldByIndex(f.Index).Set(reflect.ValueOf(list))
		default:
			return false
		}
	}
	n := 0
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() || f.Anonymous {
			return false
		}
		_, isArg := f.Tag.Lookup("arg")
		allowed := directFlagTags
		switch {
		case isArg:
			allowed = directArgTags
		case f.Type == reflect.TypeFor[[]string]():
			allowed = listFlagTags
		}
		if !onlyTags(f.Tag, allowed) {
			return false
		}
		if !isArg {
			continue
		}
		if f.Type != reflect.TypeFor[string]() {
			return false
		}
		if n == len(words) {
			if _, optional := f.Tag.Lookup("optional"); !optional {
				return false
			}
			continue
		}
		v.Field(i).SetString(words[n])
		n++
	}
	return n == len(words)
}

// onlyTags reports whether tag has no key outside allowed.
func onlyTags(tag reflect.StructTag, allowed []string) bool {
	s := string(tag)
	for s != "" {
		i := 0
		for i < len(s) && s[i] == ' ' {
			i++
		}
		s = s[i:]
		if s == "" {
			break
		}
		i = 0
		for i < len(s) && s[i] > ' ' && s[i] != ':' && s[i] != '"' {
			i++
		}
		if i == 0 || i+1 >= len(s) || s[i] != ':' || s[i+1] != '"' {
			return false // not the conventional form: Kong decides
		}
		key := s[:i]
		s = s[i+1:]
		i = 1
		for i < len(s) && s[i] != '"' {
			if s[i] == '\\' {
				i++
			}
			i++
		}
		if i >= len(s) || !slices.Contains(allowed, key) {
			return false
		}
		s = s[i+1:]
	}
	return true
}
