package apply

import (
	"fmt"
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/settings"
)

// What each enum value tells the agent. The wording is part of the product:
// the agent reads it as an instruction.
var (
	tierText = map[string]string{
		"minimal":  "Follow only the essential rules (safety, correctness and the quality gates below); skip style and process rules.",
		"balanced": "Follow the essential rules and every other rule that clearly fits the task at hand.",
		"full":     "Follow every charter rule on every task, style and process rules included.",
	}
	onFailureText = map[string]string{
		"stop": "If a gate fails, stop: report what failed and do not declare the work done.",
		"ask":  "If a gate fails, ask the user how to proceed before you go on.",
		"warn": "If a gate fails, say so plainly in your reply, then go on.",
	}
	enforcementText = map[string]string{
		"advisory":  "When a budget is reached, tell the user and go on.",
		"hard-stop": "When a budget is reached, stop work and tell the user.",
	}
	autonomyText = map[string]string{
		"off":  "Ask before every change, command or file write.",
		"auto": "Act on routine, reversible steps without asking; ask before anything destructive, irreversible or outside the task.",
		"on":   "Act without asking, except before destructive or irreversible actions.",
	}
	worktreesText = map[string]string{
		"off": "Work in the current checkout; do not create git worktrees.",
		"on":  "Do each task in its own git worktree.",
		"ask": "Ask the user before starting a task in a separate git worktree.",
	}
	memoryText = map[string]string{
		"auto":   "Record what you learned to memory when it will matter later.",
		"always": "Record what you learned to memory at the end of every task.",
		"never":  "Do not record anything to memory.",
	}
)

// Render is the managed block for snap, markers included. It depends on
// nothing but the settings, the scope and version, so identical settings
// give identical bytes.
func Render(snap *settings.Snapshot, version string) []byte {
	v := values(snap.Values)
	var b strings.Builder
	line := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }

	line("%s", BeginMarker)
	line("## Charter settings")
	line("")
	line("Managed by charter %s for %s.", clean(version), scopeText(snap.Scope))
	line("Do not edit between the charter markers: change a setting with `charter settings set`, then run `charter apply`.")
	line("")

	line("### Rules")
	line("")
	tier := v.str("rules.tier")
	line("- Rule tier: **%s**. %s", tier, tierText[tier])
	line("- %s", names("Never apply these rules", "No rule is disabled.", v.list("rules.disabled")))
	line("")

	line("### Skills")
	line("")
	if v.bool("skills.autoload") {
		line("- Load the skills that match the task automatically.")
	} else {
		line("- Do not load skills on your own; load one only when the user asks for it.")
	}
	line("- %s", names("Never load these skills", "No skill is disabled.", v.list("skills.disabled")))
	line("")

	line("### Commands")
	line("")
	if n := v.int("commands.suggestions.max_options"); v.bool("commands.suggestions.enabled") && n > 0 {
		line("- When a slash command fits the task, suggest it: at most %d at once, and only when your confidence that it fits is at least %s.",
			n, v.dec("commands.suggestions.confidence_floor"))
	} else {
		line("- Do not suggest slash commands.")
	}
	line("")

	line("### Quality gates")
	line("")
	var gates, off []string
	if v.bool("gates.tests.required") {
		gates = append(gates, "The tests pass.")
	} else {
		off = append(off, "tests")
	}
	if v.bool("gates.lint.required") {
		gates = append(gates, "The linter passes.")
	} else {
		off = append(off, "lint")
	}
	if cov := v.dec("gates.coverage.min"); cov != "0" {
		gates = append(gates, fmt.Sprintf("Test coverage is at least %s%%.", cov))
	} else {
		off = append(off, "coverage")
	}
	if len(gates) == 0 {
		line("No quality gate is set.")
	} else {
		line("Before you declare any work done, satisfy every gate:")
		line("")
		for _, g := range gates {
			line("- [ ] %s", g)
		}
		line("")
		line("%s", onFailureText[v.str("gates.on_failure")])
	}
	if len(off) > 0 {
		line("")
		line("Not required here: %s.", strings.Join(off, ", "))
	}
	line("")

	line("### Cost")
	line("")
	line("- Daily budget: %s.", budget(v.dec("cost.budget.daily")))
	line("- Monthly budget: %s.", budget(v.dec("cost.budget.monthly")))
	enf := v.str("cost.enforcement")
	line("- Enforcement: **%s**. %s", enf, enforcementText[enf])
	line("")

	line("### Working style")
	line("")
	aut := v.str("agent.autonomy")
	line("- Autonomy: **%s**. %s", aut, autonomyText[aut])
	if v.bool("agent.minimal_output") {
		line("- Output: **minimal**. Keep replies short: results first, no filler, no recaps.")
	} else {
		line("- Output: **full**. Replies may be as detailed as the task needs.")
	}
	wt := v.str("worktrees.mode")
	line("- Worktrees: **%s**. %s", wt, worktreesText[wt])
	mem := v.str("memory.cadence")
	line("- Memory: **%s**. %s", mem, memoryText[mem])
	line("%s", EndMarker)
	return []byte(b.String())
}

// scopeText names the scope: a profile by its name, other scopes by kind
// and directory.
func scopeText(sc core.Scope) string {
	if sc.Kind == core.ScopeProfile && sc.Profile.Active {
		return "the profile " + clean(sc.Profile.Name())
	}
	return fmt.Sprintf("the %s scope (%s)", sc.Kind, clean(sc.Path))
}

func budget(d string) string {
	if d == "0" {
		return "none"
	}
	return d
}

// names renders a list of names in code spans, or none when it is empty.
func names(lead, none string, items []string) string {
	if len(items) == 0 {
		return none
	}
	quoted := make([]string, len(items))
	for i, it := range items {
		quoted[i] = code(clean(it))
	}
	return lead + ": " + strings.Join(quoted, ", ") + "."
}

// code wraps s in a code span long enough for the backticks inside it.
func code(s string) string {
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return fence + s + fence
}

// clean folds every run of white space, newlines included, into one space:
// a value can then never start a line of its own, and so never forge a
// marker.
func clean(s string) string { return strings.Join(strings.Fields(s), " ") }

// values reads a snapshot's map, whose types the settings schema fixes.
type values map[string]any

func (v values) bool(k string) bool     { return v[k].(bool) }
func (v values) int(k string) int64     { return v[k].(int64) }
func (v values) dec(k string) string    { return string(v[k].(settings.Dec)) }
func (v values) str(k string) string    { return v[k].(string) }
func (v values) list(k string) []string { return v[k].([]string) }
