package commands

import (
	"strings"
)

// ANSI colours for people at a terminal. charter colours only what it
// helps to tell apart (a diff's lines, the prefix of an error), never
// output that goes to a pipe or a file, and never with NO_COLOR set
// (https://no-color.org) or on a dumb terminal.
const (
	ansiReset = "\x1b[0m"
	ansiBold  = "\x1b[1m"
	ansiRed   = "\x1b[31m"
	ansiGreen = "\x1b[32m"
	ansiCyan  = "\x1b[36m"
	ansiError = "\x1b[1;31m"
)

// terminal reports whether stream is a terminal, through a.Terminal (which
// a test replaces with a fake terminal).
func (a *App) terminal(stream any) bool {
	if a.Terminal == nil { // an App built by hand
		return isTerminal(stream)
	}
	return a.Terminal(stream)
}

// colorFor reports whether text written to stream may carry colour.
// CLICOLOR_FORCE (set, not 0) forces it into a pipe, for a pager or CI
// log that renders it (https://bixense.com/clicolors); NO_COLOR still wins.
func (a *App) colorFor(stream any) bool {
	if a.Sys.Getenv("NO_COLOR") != "" {
		return false
	}
	if f := a.Sys.Getenv("CLICOLOR_FORCE"); f != "" && f != "0" {
		return true
	}
	return a.terminal(stream) && a.Sys.Getenv("TERM") != "dumb"
}

// paint wraps s in an ANSI colour when on is set.
func paint(on bool, color, s string) string {
	if !on || s == "" {
		return s
	}
	return color + s + ansiReset
}

// colorDiff colours a unified diff line by line: headers bold, hunk
// headers cyan, removed lines red, added lines green.
func colorDiff(diff string) string {
	var b strings.Builder
	for line := range strings.Lines(diff) {
		text, nl := strings.CutSuffix(line, "\n")
		color := ""
		switch {
		case strings.HasPrefix(text, "--- "), strings.HasPrefix(text, "+++ "):
			color = ansiBold
		case strings.HasPrefix(text, "@@"):
			color = ansiCyan
		case strings.HasPrefix(text, "-"):
			color = ansiRed
		case strings.HasPrefix(text, "+"):
			color = ansiGreen
		}
		b.WriteString(paint(color != "", color, text))
		if nl {
			b.WriteByte('\n')
		}
	}
	return b.String()
}
