package commands

import (
	"bytes"
	"go/doc"
	"io"
	"os"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/term"

	"github.com/agentkit/charter/core/lazy"
)

//go:generate go test -run ^TestRootHelpText$ -update-help .

// printRootHelp prints charter's own help from the text generated from the
// whole grammar (roothelp_text.go, held equal by TestRootHelpText), without
// building any grammar, when Kong would render it at the width that text
// has; it reports whether it did. Kong wraps the build line, the one part
// that differs from build to build, as a paragraph of its own: so does this.
func (a *App) printRootHelp() bool {
	if helpWidth(a.Stdout) != rootHelpWidth {
		return false
	}
	line := a.Build().String()
	if strings.ContainsFunc(line, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		return false // a paragraph break or a control character: Kong decides
	}
	var wrapped bytes.Buffer
	doc.ToText(&wrapped, line, "", "    ", rootHelpWidth) //nolint:staticcheck // as Kong's helpWriter.Wrap
	var out strings.Builder
	out.WriteString(rootHelpHead)
	for l := range strings.SplitSeq(strings.TrimSpace(wrapped.String()), "\n") {
		out.WriteString(strings.TrimRight(l, " ") + "\n")
	}
	out.WriteString(rootHelpTail)
	_, err := io.WriteString(a.Stdout, out.String())
	return err == nil // else Kong prints it and reports the error
}

// helpWidth is the width Kong's help printer wraps to: COLUMNS as it reads
// it (from the process), else the terminal's, else 80.
func helpWidth(w io.Writer) int {
	switch runtime.GOOS {
	case "linux", "darwin", "freebsd", "dragonfly", "netbsd", "openbsd":
	default:
		return 80 // Kong asks no terminal here
	}
	if s := os.Getenv("COLUMNS"); s != "" {
		if n, err := strconv.Atoi(s); err == nil {
			return n
		}
	}
	if f, ok := w.(*os.File); ok {
		if cols, _, err := term.GetSize(int(f.Fd())); err == nil {
			if cols == 0 {
				return 80
			}
			return cols
		}
	}
	return 80
}

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
var helpTree = lazy.Value[reflect.Type]{Make: func() reflect.Type { return commandTree(reflect.TypeFor[CLI](), true) }}

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
