package commands

import (
	"fmt"
	"io"
	"strings"

	"github.com/alecthomas/kong"

	"github.com/agentkit/charter/core"
)

// ManCmd prints charter's man page, made of the same model and topics as
// the help: `charter man > charter.1`, or `charter man | man -l -`.
type ManCmd struct{}

func (c *ManCmd) Run(kctx *kong.Context, a *App) error {
	_, err := io.WriteString(a.Stdout, manPage(kctx.Model, a))
	return err
}

func manPage(app *kong.Application, a *App) string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	w(`.TH CHARTER 1 "" "charter %s" "User Commands"`, roff(a.Build().Version))
	w(".SH NAME")
	w(`charter \- %s`, roff(strings.TrimPrefix(strings.SplitN(app.Help, "\n", 2)[0], "charter ")))
	w(".SH SYNOPSIS")
	w(`.B charter`)
	w(`.I command`)
	w(`[\fIflags\fR]`)
	w(".SH DESCRIPTION")
	w("%s", roffText(strings.SplitN(app.Help, "\n\n", 2)[0]))
	w(".SH GLOBAL FLAGS")
	manFlags(&b, app.Node.Flags)
	w(".SH COMMANDS")
	for _, c := range app.Node.Leaves(true) {
		if c.Type != kong.CommandNode {
			continue
		}
		w(".SS %s", roffQuote(usageLine(c)))
		w("%s", roffText(c.Help))
		if c.Detail != "" {
			w(".PP")
			w("%s", roffText(c.Detail))
		}
		for _, p := range c.Positional {
			w(".TP")
			w(`.I %s`, roffQuote(argName(p)))
			w("%s", roffText(p.Help))
		}
		var own []*kong.Flag
		for _, f := range c.Flags {
			if !f.Hidden {
				own = append(own, f)
			}
		}
		manFlags(&b, own)
	}
	for _, t := range topics() {
		w(".SH %s", t.Title)
		w(".nf")
		w("%s", roffLines(t.text(a)))
		w(".fi")
	}
	w(".SH SEE ALSO")
	w("charter help TOPIC; %s", roff(core.Name+" COMMAND --help"))
	return b.String()
}

func manFlags(b *strings.Builder, flags []*kong.Flag) {
	for _, f := range flags {
		if f.Hidden {
			continue
		}
		name := `\-\-` + roff(f.Name)
		if f.Short != 0 {
			name = `\-` + string(f.Short) + ", " + name
		}
		if !f.IsBool() {
			name += "=" + `\fI` + roff(f.FormatPlaceHolder()) + `\fR`
		}
		fmt.Fprintf(b, ".TP\n\\fB%s\\fR\n%s\n", name, roffText(f.Help))
	}
}

// roff escapes text for a roff line: backslashes and hyphens.
func roff(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\e`)
		case r == '-':
			b.WriteString(`\-`)
		case r > 127: // groff reads ASCII: others by their code point
			fmt.Fprintf(&b, `\[u%04X]`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// roffText is s as filled text: no line may start with a control
// character (. or ').
func roffText(s string) string { return roffLines(s) }

func roffLines(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		l = roff(l)
		if strings.HasPrefix(l, ".") || strings.HasPrefix(l, "'") {
			l = `\&` + l
		}
		lines[i] = l
	}
	return strings.Join(lines, "\n")
}

func roffQuote(s string) string { return `"` + strings.ReplaceAll(roff(s), `"`, `\(dq`) + `"` }
