package commands

import (
	"errors"
	"fmt"
	"strings"

	"github.com/alecthomas/kong"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/lazy"
	"github.com/agentkit/charter/helpers/shell"
	"github.com/agentkit/charter/helpers/words"
)

// This file is the one place where Kong's parse errors become charter's
// usage errors. Kong words them for programmers ("expected string value
// but got "EOL" (<EOL>)"); charter says what is wrong with the command
// line in the user's words, how to fix it, and the usage line of the
// command concerned. Kong's errors carry no types, so they are recognised
// by their text here and nowhere else; usage_test.go pins every case, so a
// Kong upgrade that rewords one fails a test instead of leaking through.

// cliUsageError is a command line charter could not parse.
type cliUsageError struct {
	msg   string
	usage string // the usage line of the command concerned, or ""
}

func (e *cliUsageError) Error() string { return e.msg }
func (e *cliUsageError) Code() string  { return core.CodeUsage }

// Extras adds the usage line to a JSON error body.
func (e *cliUsageError) Extras() map[string]any {
	if e.usage == "" {
		return nil
	}
	return map[string]any{"usage": e.usage}
}

// usageError turns what Kong could not parse in args into a usage error.
func usageError(err error, args []string, app *kong.Application) error {
	var pe *kong.ParseError
	ctx := (*kong.Context)(nil)
	if errors.As(err, &pe) {
		ctx, err = pe.Context, pe.Unwrap()
	}
	node := app.Node
	if ctx != nil {
		node = reached(ctx, app)
	}
	return &cliUsageError{msg: parseMessage(err, ctx, node, args), usage: usageLine(node)}
}

// reached is the last command the parse got to, or the root.
func reached(ctx *kong.Context, app *kong.Application) *kong.Node {
	node := app.Node
	for _, p := range ctx.Path {
		if p.Command != nil {
			node = p.Command
		}
	}
	return node
}

// The patterns compile on first use: only a command line with a mistake
// needs them, and start-up is paid by every command.
var (
	reDidYouMean  = lazy.Regexp{Expr: `, did you mean (one of )?.*\?$`}
	reUnknownFlag = lazy.Regexp{Expr: `^unknown flag (\S+)$`}
	reUnexpected  = lazy.Regexp{Expr: `^unexpected argument (.*)$`}
	reFlagProblem = lazy.Regexp{Expr: `^(--[\w-]+|-\w): (.*)$`}
	reNegative    = lazy.Regexp{Expr: `^-(\d|\.\d)`}
	reGotFlag     = lazy.Regexp{Expr: `but got "([^"]*)" \((long flag|short flag)[^)]*\)`}
	reBadInt      = lazy.Regexp{Expr: `expected a valid \d+ bit u?int but got "([^"]*)"`}
	reBadDuration = lazy.Regexp{Expr: `expected duration but got "([^"]*)"`}
	reBadBool     = lazy.Regexp{Expr: `bool value must be .* but got "([^"]*)"`}
	reBadEnum     = lazy.Regexp{Expr: `must be one of (.*) but got "([^"]*)"`}
	reTogether    = lazy.Regexp{Expr: `^(--[\w-]+) and (--[\w-]+) can't be used together$`}
)

// parseMessage says what is wrong with args, for the command node.
func parseMessage(err error, ctx *kong.Context, node *kong.Node, args []string) string {
	// Kong's guesses are dropped: charter makes its own, from its words.
	msg := reDidYouMean.Get().ReplaceAllString(err.Error(), "")
	cmd := commandText(node)
	switch {
	case reUnknownFlag.Get().MatchString(msg):
		return unknownFlag(reUnknownFlag.Get().FindStringSubmatch(msg)[1], node, cmd, args)
	case reUnexpected.Get().MatchString(msg):
		return unexpected(reUnexpected.Get().FindStringSubmatch(msg)[1], node, cmd)
	case strings.HasPrefix(msg, "expected ") || strings.HasPrefix(msg, "missing positional arguments"):
		return missing(ctx, node, cmd)
	case reTogether.Get().MatchString(msg):
		m := reTogether.Get().FindStringSubmatch(msg)
		return fmt.Sprintf("%s and %s cannot be used together: give one of them", m[1], m[2])
	case reFlagProblem.Get().MatchString(msg):
		m := reFlagProblem.Get().FindStringSubmatch(msg)
		return flagProblem(m[1], m[2], node)
	}
	return msg
}

func unknownFlag(flag string, node *kong.Node, cmd string, args []string) string {
	if reNegative.Get().MatchString(flag) {
		// Kong names the short flag (-1 of -1.5); the user typed the word.
		word := flag
		for _, a := range args {
			if strings.HasPrefix(a, flag) {
				word = a
				break
			}
		}
		return fmt.Sprintf("%s looks like a negative number, but a word that starts with - is read as a flag: put -- before it, as in `%s`", word, example(args, word))
	}
	msg := "unknown flag " + flag
	if strings.HasPrefix(flag, "--") {
		name, _, _ := strings.Cut(flag, "=")
		if near := words.Nearest(name, flagNames(node)); near != "" {
			return msg + fmt.Sprintf(": did you mean %s?", near)
		}
	}
	return msg + fmt.Sprintf(": `%s --help` lists the flags it takes", cmd)
}

// example is args with value moved to the end, after --, where no word is
// a flag any more.
func example(args []string, value string) string {
	out := []string{core.Name}
	for _, a := range args {
		if a != value {
			out = append(out, shell.Quote(a))
		}
	}
	return strings.Join(append(out, "--", shell.Quote(value)), " ")
}

// subject is cmd opening a message: the message is printed after
// "charter:", so "charter settings needs …" would say charter twice.
func subject(cmd string) string { return strings.TrimPrefix(cmd, "charter ") }

func unexpected(word string, node *kong.Node, cmd string) string {
	if subs := commands(node); len(subs) > 0 {
		msg := fmt.Sprintf("%s has no command %q", subject(cmd), word)
		if node.Parent == nil {
			msg = fmt.Sprintf("unknown command %q", word)
		}
		if near := words.Nearest(word, subs); near != "" {
			return msg + fmt.Sprintf(": did you mean %q?", near)
		}
		return msg + ": choose " + orList(subs)
	}
	if len(node.Positional) == 0 {
		return fmt.Sprintf("%s takes no arguments, but got %q", subject(cmd), word)
	}
	return fmt.Sprintf("too many arguments: %s takes %s, and %q is one more (quote a value that holds spaces)", cmd, positionals(node), word)
}

func missing(ctx *kong.Context, node *kong.Node, cmd string) string {
	given := 0
	if ctx != nil {
		for _, p := range ctx.Path {
			if p.Positional != nil {
				given++
			}
		}
	}
	var names []string
	var first *kong.Positional
	for _, p := range node.Positional[min(given, len(node.Positional)):] {
		if p.Required {
			names = append(names, argName(p))
			if first == nil {
				first = p
			}
		}
	}
	if first == nil {
		if subs := commands(node); len(subs) > 0 {
			if node.Parent == nil {
				return "no command given: choose " + orList(subs)
			}
			return fmt.Sprintf("%s needs a command: %s", subject(cmd), orList(subs))
		}
		return subject(cmd) + " is missing an argument"
	}
	msg := "missing " + strings.Join(names, " and ")
	if h := strings.TrimSpace(first.Help); h != "" && len(names) == 1 {
		msg += " (" + lowerFirst(strings.TrimSuffix(h, ".")) + ")"
	}
	return msg
}

func flagProblem(flag, problem string, node *kong.Node) string {
	placeholder := "VALUE"
	for _, f := range allFlags(node) {
		if "--"+f.Name == flag || (f.Short != 0 && "-"+string(f.Short) == flag) {
			flag = "--" + f.Name
			placeholder = f.FormatPlaceHolder()
		}
	}
	switch {
	case strings.Contains(problem, `but got "EOL"`) || strings.HasPrefix(problem, "missing value"):
		return fmt.Sprintf("%s needs a value: %s %s", flag, flag, placeholder)
	case reGotFlag.Get().MatchString(problem):
		next := reGotFlag.Get().FindStringSubmatch(problem)[1]
		return fmt.Sprintf("%s needs a value, but the next word is the flag %s: give the value right after it (%s %s), or write %s=%s if the value itself starts with -", flag, next, flag, placeholder, flag, next)
	case reBadInt.Get().MatchString(problem):
		return fmt.Sprintf("%s: %q is not a whole number", flag, reBadInt.Get().FindStringSubmatch(problem)[1])
	case reBadDuration.Get().MatchString(problem):
		return fmt.Sprintf("%s: %q is not a duration: use a number and a unit, e.g. 90s, 30m or 1h", flag, reBadDuration.Get().FindStringSubmatch(problem)[1])
	case reBadBool.Get().MatchString(problem):
		return fmt.Sprintf("%s is a switch: give it alone to turn it on (%s=false turns it off), not %q", flag, flag, reBadBool.Get().FindStringSubmatch(problem)[1])
	case reBadEnum.Get().MatchString(problem):
		m := reBadEnum.Get().FindStringSubmatch(problem)
		return fmt.Sprintf("%s: %q is not allowed: use one of %s", flag, m[2], strings.ReplaceAll(m[1], ",", ", "))
	}
	return flag + ": " + problem
}

// usageLine is `charter settings set KEY VALUE [flags]` for a command.
func usageLine(node *kong.Node) string {
	parts := []string{commandText(node)}
	if p := positionals(node); p != "" {
		parts = append(parts, p)
	} else if len(commands(node)) > 0 {
		parts = append(parts, "COMMAND")
	}
	for _, f := range allFlags(node) {
		if f.Name != "help" {
			parts = append(parts, "[flags]")
			break
		}
	}
	return strings.Join(parts, " ")
}

// commandText is `charter settings set`: the words that select node.
func commandText(node *kong.Node) string {
	var words []string
	for n := node; n != nil && n.Type == kong.CommandNode; n = n.Parent {
		words = append([]string{n.Name}, words...)
	}
	return strings.Join(append([]string{core.Name}, words...), " ")
}

// positionals is `KEY [VALUE] [WORDS...]` for node's arguments.
func positionals(node *kong.Node) string {
	var out []string
	for _, p := range node.Positional {
		s := argName(p)
		if p.IsCumulative() {
			s += "..."
		}
		if !p.Required {
			s = "[" + s + "]"
		}
		out = append(out, s)
	}
	return strings.Join(out, " ")
}

func argName(p *kong.Positional) string { return strings.ToUpper(p.Name) }

// commands lists the visible subcommands of node in the help's order:
// those in no group first.
func commands(node *kong.Node) []string {
	var out []string
	for _, c := range visibleChildren(node) {
		out = append(out, c.Name)
	}
	return out
}

// allFlags lists the visible flags that apply at node, its own first.
func allFlags(node *kong.Node) []*kong.Flag {
	var out []*kong.Flag
	for n := node; n != nil; n = n.Parent {
		for _, f := range n.Flags {
			if !f.Hidden {
				out = append(out, f)
			}
		}
	}
	return out
}

func flagNames(node *kong.Node) []string {
	var out []string
	for _, f := range allFlags(node) {
		out = append(out, "--"+f.Name)
	}
	return out
}

// orList is "a, b or c".
func orList(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}

func lowerFirst(s string) string {
	if s == "" || (len(s) > 1 && s[1] >= 'A' && s[1] <= 'Z') { // an acronym stays
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}
