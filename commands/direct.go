package commands

import (
	"context"
	"reflect"
	"slices"
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
)

// directFlags are the global flags the direct path reads.
type directFlags struct{ JSON, NoProject bool }

// directCommand reads args without building a grammar when they are a
// command path of the CLI and its positional words, with no flag but
// --json and --no-project, and the command is one whose value Kong would
// fill from those words alone (directLeaf). It returns the command, ready
// to run, and the global flags; ok false leaves args to Kong, which also
// says every error. TestDirectCommandAsKong holds that whatever it takes,
// Kong takes the same way.
func directCommand(args []string) (cmd runner, cli directFlags, ok bool) {
	var words []string
	for _, arg := range args {
		switch {
		case arg == "--json" && !cli.JSON:
			cli.JSON = true
		case arg == "--no-project" && !cli.NoProject:
			cli.NoProject = true
		case arg == "" || arg[0] != '-':
			words = append(words, arg)
		default:
			return nil, cli, false
		}
	}
	t := reflect.TypeFor[CLI]()
	if reflect.PointerTo(t).NumMethod() > 0 {
		return nil, cli, false // a hook on the root: Kong calls it
	}
	i := 0
	for ; ; i++ {
		word := ""
		if i < len(words) {
			word = words[i]
		}
		f, group, found, plain := commandNamed(t, word)
		if !group {
			break // a leaf: the rest are its arguments
		}
		if i == len(words) || !plain {
			return nil, cli, false
		}
		if !found || slices.Contains(wholeGrammar, word) || !kongName(f) || !plainStruct(f.Type) {
			return nil, cli, false
		}
		t = f.Type
	}
	v := reflect.New(t)
	cmd, ok = v.Interface().(runner)
	if !ok || !directLeaf(t, v.Elem(), words[i:]) {
		return nil, cli, false
	}
	return cmd, cli, true
}

// commandNamed looks at t's fields as split does, without building its
// maps (a start-up cost): group tells whether t has commands, f is the one
// split names word, and plain whether t's other fields are all flags Kong
// leaves unset when not given.
func commandNamed(t reflect.Type, word string) (f reflect.StructField, group, found, plain bool) {
	plain = true
	for i := range t.NumField() {
		fi := t.Field(i)
		if _, ok := fi.Tag.Lookup("cmd"); !ok {
			plain = plain && !fi.Anonymous && onlyTags(fi.Tag, directFlagTags)
			continue
		}
		group = true
		if !found && cmdNameIs(fi, word) {
			f, found = fi, true
		}
	}
	return f, group, found, plain
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

// directLeaf sets the leaf command v of type t from its positional words,
// when every field is a flag left unset or a plain string argument, and
// the words fill the required arguments without one too many.
func directLeaf(t reflect.Type, v reflect.Value, words []string) bool {
	n := 0
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() || f.Anonymous {
			return false
		}
		_, isArg := f.Tag.Lookup("arg")
		allowed := directFlagTags
		if isArg {
			allowed = directArgTags
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
