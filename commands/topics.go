package commands

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/alecthomas/kong"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/errcode"
)

// A help topic is reference text beside the commands' help, as gh has:
// `charter help environment`. The man page is made of the same texts.
type topic struct {
	Name    string
	Summary string
	Title   string // the man page's section
	text    func(a *App) string
}

func topics() []topic {
	return []topic{
		{"environment", "Every environment variable charter reads.", "ENVIRONMENT", environmentTopic},
		{"exit-codes", "What each exit status means, with the error codes that give it.", "EXIT STATUS", func(*App) string { return exitCodesTopic() }},
		{"files", "Every file and folder charter reads or writes, with modes.", "FILES", func(*App) string { return filesTopic() }},
		{"layers", "Where a setting's value comes from: default, global, scope, project, policy.", "LAYERS", func(*App) string { return layersTopic() }},
	}
}

func findTopic(name string) (topic, bool) {
	i := slices.IndexFunc(topics(), func(t topic) bool { return t.Name == name })
	if i < 0 {
		return topic{}, false
	}
	return topics()[i], true
}

func environmentTopic(a *App) string {
	var b strings.Builder
	b.WriteString("The environment variables charter reads. A blank value counts as unset.\n\n")
	for _, v := range a.session().Environment() {
		fmt.Fprintf(&b, "  %s\n      %s\n", v.Name, v.Use)
	}
	return b.String()
}

// exitCodes groups core's error codes under the exit status each gives.
func exitCodes() map[ExitCode][]string {
	out := map[ExitCode][]string{}
	for _, c := range errcode.All() {
		status, _ := exitFor(c)
		out[status] = append(out[status], c)
	}
	return out
}

func exitCodesTopic() string {
	var b strings.Builder
	b.WriteString("charter's exit status says how a command ended; scripts branch on it. With --json an\n")
	b.WriteString("error is also a document on stdout, {\"error\":{\"code\":…,\"message\":…}}, whose code is one\n")
	b.WriteString("of those listed under its status.\n\n")
	codes := exitCodes()
	for _, s := range exitStatuses {
		fmt.Fprintf(&b, "  %d  %s\n", s.Status, s.Meaning)
		if c := codes[s.Status]; len(c) > 0 {
			fmt.Fprintf(&b, "     codes: %s\n", strings.Join(c, ", "))
		}
	}
	b.WriteString("\nThe Stop hook (gate hook claude-stop) exits 2 to block the agent's stop, as Claude Code asks.\n")
	return b.String()
}

// topicDoc is a topic with --json.
type topicDoc struct {
	Topic     string        `json:"topic"`
	Summary   string        `json:"summary"`
	Text      string        `json:"text"`
	Variables []core.EnvVar `json:"variables,omitempty"`
	ExitCodes []exitCodeDoc `json:"exitCodes,omitempty"`
}

type exitCodeDoc struct {
	Status  int      `json:"status"`
	Meaning string   `json:"meaning"`
	Codes   []string `json:"codes"`
}

func (a *App) printTopic(t topic) error {
	doc := topicDoc{Topic: t.Name, Summary: t.Summary, Text: t.text(a)}
	switch t.Name {
	case "environment":
		doc.Variables = a.session().Environment()
	case "exit-codes":
		codes := exitCodes()
		for _, s := range exitStatuses {
			doc.ExitCodes = append(doc.ExitCodes, exitCodeDoc{int(s.Status), s.Meaning, append([]string{}, codes[s.Status]...)})
		}
	}
	return a.emit(doc, func(w io.Writer) { io.WriteString(w, doc.Text) })
}

// helpPrinter prints Kong's help with the topics after the root's, and
// with --json the help's JSON form instead (SPEC §3: one document).
func (a *App) helpPrinter(opts kong.HelpOptions, ctx *kong.Context) error {
	ctx.Model.Help = charterSummary + "\n\n" + a.Build().String()
	if a.JSON {
		return a.writeJSON(helpDoc(ctx.Selected(), ctx.Model))
	}
	if err := kong.DefaultHelpPrinter(opts, ctx); err != nil {
		return err
	}
	if ctx.Selected() == nil {
		fmt.Fprintln(ctx.Stdout, "\nHelp topics (charter help TOPIC):")
		for _, t := range topics() {
			fmt.Fprintf(ctx.Stdout, "  %-13s %s\n", t.Name, t.Summary)
		}
	}
	return nil
}
