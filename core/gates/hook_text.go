package gates

import (
	"encoding/json"
	"fmt"
	"strings"
)

func systemMessage(decision, msg string) HookResult {
	b, _ := json.Marshal(struct {
		SystemMessage string `json:"systemMessage"`
	}{msg})
	return HookResult{Decision: decision, Stdout: string(b) + "\n"}
}

// brief is "tests (exit code 3), lint (timed out …)".
func brief(failing []Result) string {
	parts := make([]string, len(failing))
	for i, g := range failing {
		parts[i] = fmt.Sprintf("%s (%s)", g.Name, firstLine(g.Message))
	}
	return strings.Join(parts, ", ")
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// summaryLines and summaryWidth keep the text the agent reads short.
const (
	summaryLines = 20
	summaryWidth = 240
)

// details writes, for each failing gate, what failed, its last lines and
// the command to run it again.
func details(b *strings.Builder, failing []Result, dir string) {
	for _, g := range failing {
		fmt.Fprintf(b, "\n%s %s: %s\n", g.Name, strings.ReplaceAll(g.Status, "_", " "), g.Message)
		lines := g.OutputTail
		if len(lines) > summaryLines {
			lines = lines[len(lines)-summaryLines:]
		}
		if len(lines) > 0 {
			fmt.Fprintf(b, "Last lines of its output:\n")
			for _, l := range lines {
				if len(l) > summaryWidth {
					l = l[:summaryWidth] + "…"
				}
				fmt.Fprintf(b, "  %s\n", strings.ToValidUTF8(l, "\uFFFD"))
			}
		}
		if g.Command != "" {
			fmt.Fprintf(b, "Run it again (in %s): %s\n", dir, g.Command)
		}
	}
}

func stopText(failing []Result, dir string, n, maxBlocks int, runAll string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "charter: a required quality gate fails, so the work is not done yet (stop blocked %d of at most %d times in a row).\n", n, maxBlocks)
	details(&b, failing, dir)
	fmt.Fprintf(&b, "\nFix the cause, run the gate again until it passes, then finish. `%s` runs every gate.\n", runAll)
	return b.String()
}

func askText(failing []Result, dir, runAll string) string {
	var b strings.Builder
	b.WriteString("charter: a required quality gate fails, and this project asks that you stop here and ask the user how to proceed (gates.on_failure: ask).\n")
	b.WriteString("Do not try to make the gate pass or work around it now: tell the user which gate fails and why, in a few lines, and ask what to do.\n")
	details(&b, failing, dir)
	fmt.Fprintf(&b, "\n`%s` runs every gate.\n", runAll)
	return b.String()
}
