package commands

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/alecthomas/kong"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/content"
	"github.com/agentkit/charter/core/inert"
	"github.com/agentkit/charter/core/session"
	"github.com/agentkit/charter/core/settings"
)

// Shell completion, written over Kong's model of the grammar: the scripts
// that `charter completion SHELL` prints call the hidden `charter
// __complete -- WORDS...` (as cobra's do), where WORDS are the words after
// `charter` up to the cursor, the last one being the word under it
// (possibly empty). It prints one candidate a line, a tab and a short
// description after it where there is one, and a last line `:files` or
// `:dirs` when the shell should complete paths instead.
//
// What a position completes to comes from the grammar: commands and flags
// from the model, and a field's `complete:"…"` tag names what its values
// are (a setting key, a key's allowed values, a prefix, …).

// CompleteCmd is the entry point the completion scripts call.
type CompleteCmd struct {
	Words []string `arg:"" optional:"" help:"The words after charter, the last one under the cursor."`
}

func (c *CompleteCmd) Run(kctx *kong.Context, a *App) error {
	words := c.Words
	if len(words) == 0 {
		words = []string{""}
	}
	// Windows PowerShell can pass an empty argument only as "" in quotes;
	// newer versions then hand it over literally.
	if last := len(words) - 1; words[last] == `""` {
		words[last] = ""
	}
	printCompletion(a.Stdout, completeWords(a, kctx.Model, words))
	return nil
}

// candidate is one completion and what it is.
type candidate struct{ value, desc string }

// completion is what a position completes to.
type completion struct {
	items []candidate
	paths string // "files" or "dirs" when the shell should complete paths
}

func printCompletion(w io.Writer, c completion) {
	for _, it := range c.items {
		// Shells show both in a menu; descriptions come from files.
		if it.desc != "" {
			fmt.Fprintf(w, "%s\t%s\n", inert.Line(it.value), inert.Line(oneLine(it.desc)))
		} else {
			fmt.Fprintln(w, inert.Line(it.value))
		}
	}
	if c.paths != "" {
		fmt.Fprintf(w, ":%s\n", c.paths)
	}
}

// completeWords completes the last of words, read against the grammar.
func completeWords(a *App, app *kong.Application, words []string) completion {
	node := app.Node
	var args []string // the positional words given to node so far
	dashdash := false
	last := len(words) - 1
	for i := 0; i < last; i++ {
		w := words[i]
		switch {
		case dashdash:
			args = append(args, w)
		case w == "--":
			dashdash = true
		case strings.HasPrefix(w, "-") && w != "-":
			if f := findFlag(node, w); f != nil && takesValue(f) && !strings.Contains(w, "=") {
				i++ // its value
			}
		default:
			if child := subcommand(node, w); child != nil && len(args) == 0 {
				node = child
				continue
			}
			args = append(args, w)
		}
	}
	cur := words[last]

	// The value of a flag: after it, or after its =.
	if !dashdash && last > 0 {
		prev := words[last-1]
		if f := findFlag(node, prev); f != nil && strings.HasPrefix(prev, "-") && takesValue(f) && !strings.Contains(prev, "=") {
			return flagValues(f, "", cur)
		}
	}
	if !dashdash && strings.HasPrefix(cur, "--") && strings.Contains(cur, "=") {
		name, value, _ := strings.Cut(cur, "=")
		if f := findFlag(node, name); f != nil && takesValue(f) {
			return flagValues(f, name+"=", value)
		}
		return completion{}
	}
	if !dashdash && strings.HasPrefix(cur, "-") {
		return completion{items: filter(flagCandidates(node, words[:last]), cur)}
	}

	// A subcommand, or the value of the next positional argument.
	if subs := visibleChildren(node); len(subs) > 0 && len(args) == 0 {
		var items []candidate
		for _, c := range subs {
			items = append(items, candidate{c.Name, c.Help})
		}
		return completion{items: filter(items, cur)}
	}
	p := positionalAt(node, len(args))
	if p == nil {
		return completion{}
	}
	return completion{items: filter(predict(a, p.Tag.Get("complete"), app, args), cur)}
}

// predict lists the values of a positional argument whose complete tag is
// what; args are the positional words before it.
func predict(a *App, what string, app *kong.Application, args []string) []candidate {
	var out []candidate
	words := session.Words()
	if kind, ok := strings.CutPrefix(what, "item-"); ok {
		return itemNames(a, content.Kind(kind))
	}
	switch what {
	case "key":
		for _, k := range words.Keys {
			out = append(out, candidate{k.Name, k.Description})
		}
		slices.SortFunc(out, func(a, b candidate) int { return strings.Compare(a.value, b.value) })
	case "prefix":
		titles := map[string]string{}
		for _, s := range words.Sections {
			titles[s.Name] = s.Title
		}
		for _, p := range session.KeyPrefixes() {
			desc := titles[p]
			if k, ok := words.Key(p); ok {
				desc = k.Description
			}
			out = append(out, candidate{p, desc})
		}
	case "value": // the value of the key given first
		if len(args) == 0 {
			return nil
		}
		k, ok := words.Key(args[0])
		if !ok {
			return nil
		}
		switch k.Kind {
		case settings.Enum:
			for _, c := range k.Choices {
				out = append(out, candidate{c, k.Tell.Says.For(c)})
			}
		case settings.Bool:
			out = []candidate{{"true", ""}, {"false", ""}}
		}
	case "command": // help's words: the commands below those given
		node := app.Node
		for _, w := range args {
			if node = subcommand(node, w); node == nil {
				return nil
			}
		}
		for _, c := range visibleChildren(node) {
			out = append(out, candidate{c.Name, c.Help})
		}
		if len(args) == 0 { // help's topics, after its commands
			for _, t := range topics() {
				out = append(out, candidate{t.Name, t.Summary})
			}
		}
	case "shell":
		for _, s := range shells {
			out = append(out, candidate{s.name, ""})
		}
	case "recommendation":
		out = []candidate{{core.CompanionRecommendationID, "the agent-switch companion"}}
	}
	return out
}

// flagValues completes the value of flag f after prefix (`--agent=` when
// the value shares the word with the flag). A list flag completes its
// last comma-separated item.
func flagValues(f *kong.Flag, prefix, cur string) completion {
	var items []candidate
	words := session.Words()
	switch f.Tag.Get("complete") {
	case "dir":
		return completion{paths: "dirs"}
	case "agent":
		for _, ag := range words.Agents {
			items = append(items, candidate{ag.Name, "writes " + cmp.Or(ag.UserFile, ag.ProjectFile)})
		}
		items = append(items, candidate{"all", "every agent"})
	case "import-from": // import --from: an agent, or a peer tool
		for _, ag := range words.Agents {
			items = append(items, candidate{ag.Name, "its native files"})
		}
		items = append(items, candidate{"rulesync", ".rulesync/"}, candidate{"ruler", ".ruler/"})
	case "gate": // a comma-separated list in one string
		for _, g := range words.Gates {
			items = append(items, candidate{g, "the " + g + " gate"})
		}
	case "capability":
		for name := range words.Capabilities {
			items = append(items, candidate{name, ""})
		}
		slices.SortFunc(items, func(a, b candidate) int { return strings.Compare(a.value, b.value) })
	default:
		return completion{}
	}
	if f.IsSlice() || f.Tag.Get("complete") == "gate" {
		if i := strings.LastIndex(cur, ","); i >= 0 {
			given := strings.Split(cur[:i], ",")
			items = slices.DeleteFunc(items, func(c candidate) bool { return slices.Contains(given, c.value) })
			prefix, cur = prefix+cur[:i+1], cur[i+1:]
		}
	}
	items = filter(items, cur)
	for i := range items {
		items[i].value = prefix + items[i].value
	}
	return completion{items: items}
}

// flagCandidates lists the flags that apply at node by their long names;
// a flag already given is left out unless it can be repeated.
func flagCandidates(node *kong.Node, given []string) []candidate {
	var out []candidate
	for _, f := range allFlags(node) {
		if f.Name == "help" {
			continue
		}
		used := slices.ContainsFunc(given, func(w string) bool { return findFlag(node, w) == f })
		if used && !f.IsSlice() {
			continue
		}
		out = append(out, candidate{"--" + f.Name, f.Help})
	}
	return out
}

// findFlag resolves a word (--name, --name=value, -x) to a flag that
// applies at node.
func findFlag(node *kong.Node, word string) *kong.Flag {
	name, _, _ := strings.Cut(word, "=")
	for _, f := range allFlags(node) {
		if name == "--"+f.Name || (f.Short != 0 && name == "-"+string(f.Short)) {
			return f
		}
	}
	return nil
}

func takesValue(f *kong.Flag) bool { return !f.IsBool() && !f.IsCounter() }

func subcommand(node *kong.Node, word string) *kong.Node {
	for _, c := range node.Children {
		if c.Type == kong.CommandNode && (c.Name == word || slices.Contains(c.Aliases, word)) {
			return c
		}
	}
	return nil
}

// visibleChildren lists node's commands in the help's order: those in no
// group first.
func visibleChildren(node *kong.Node) []*kong.Node {
	var out, grouped []*kong.Node
	for _, c := range node.Children {
		switch {
		case c.Type != kong.CommandNode || c.Hidden:
		case c.Group != nil:
			grouped = append(grouped, c)
		default:
			out = append(out, c)
		}
	}
	return append(out, grouped...)
}

// positionalAt is the argument the i-th positional word fills: a list
// argument takes every word from its place on.
func positionalAt(node *kong.Node, i int) *kong.Positional {
	ps := node.Positional
	switch {
	case i < len(ps):
		return ps[i]
	case len(ps) > 0 && ps[len(ps)-1].IsCumulative():
		return ps[len(ps)-1]
	}
	return nil
}

func filter(items []candidate, prefix string) []candidate {
	var out []candidate
	for _, it := range items {
		if strings.HasPrefix(it.value, prefix) {
			out = append(out, it)
		}
	}
	return out
}

// oneLine keeps a description to one line without tabs.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
