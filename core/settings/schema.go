// Package settings is charter's settings: one schema that drives validation,
// defaults, help, listing, the JSON Schema and the hub's form, and a layered
// YAML store whose writes keep the user's comments and unknown keys.
package settings

import (
	"slices"
	"sort"
	"time"

	"github.com/agentkit/charter/helpers/dotpath"
)

// Kind is a setting's type.
type Kind string

const (
	Bool    Kind = "bool"
	Int     Kind = "int"
	Decimal Kind = "decimal"
	Enum    Kind = "enum"
	List    Kind = "list"
	// String is free text, e.g. a command; "" means not set.
	String Kind = "string"
	// Duration is a Go duration ("90s", "10m"), > 0, kept in canonical
	// form ("1m30s", "10m").
	Duration Kind = "duration"
)

// The keys about content (core/content reads them by these names).
const (
	KeyRulesTier      = "rules.tier"
	KeyRulesDisabled  = "rules.disabled"
	KeySkillsAutoload = "skills.autoload"
	KeySkillsDisabled = "skills.disabled"
)

// Key describes one setting.
type Key struct {
	Name        string // dotted, e.g. rules.tier
	Kind        Kind
	Default     any           // bool, int64, string (enum, string, duration), Dec, []string
	Choices     []string      // Enum
	Min, Max    Dec           // Int, Decimal: the bounds, "" where there is none
	MaxDuration time.Duration // Duration: the longest value allowed (0: no bound)
	Description string
	Unit        string // Int, Decimal: what the number counts, shown beside its control
	Item        string // List: what one item names
	Tell        Tell   // what the value tells the agent in the block apply writes
	// ItemCheck, for a List, says what is wrong with one item ("" when it
	// is fine): the permission grammar, server names.
	ItemCheck func(string) string
	// ItemPattern is ItemCheck as near as a JSON Schema pattern gets, for
	// editors (the `..` of a glob is charter's check alone).
	ItemPattern string
}

// Tell is what a setting tells the agent in the block `charter apply`
// renders into each instruction file. The renderer reads keys and their
// Tell from the schema and names no key itself, so a new setting is one
// entry here. A key whose Tell is empty is not rendered. The wording is
// part of the product: the agent reads it as an instruction.
type Tell struct {
	// Says is the sentence for each enum choice, or for "true" and "false"
	// of a bool; a value with no sentence adds no line.
	Says Sayings
	// Label leads an enum's line ("Rule tier: **full**. …") and names a
	// quality gate that is off ("Not required here: coverage.").
	Label string
	// Line is the sentence for a number, a string or a duration, with %s
	// for the value (a string's in a code span the renderer makes, as
	// long as its backticks need), or the lead before a list's items. Zero replaces it
	// when the number is 0, None when the list or the string is empty.
	Line, Zero, None string
	// Gate makes the key a quality gate, on while it is true or a number
	// other than 0: the checklist item, with %s for a number's value.
	Gate string
	// If names a bool key that must be true for this key to be rendered.
	If string
	// Command names the key that holds a gate's command; while it is
	// empty the gate's item says Unconfigured instead of pretending
	// `charter gate run` checks it.
	Command, Unconfigured string
}

// Section is a top-level group of keys: the hub shows one card for each,
// and apply one heading, in this order.
type Section struct {
	Name  string `json:"name"` // the first segment of its keys
	Title string `json:"title"`
}

var sections = []Section{
	{"rules", "Rules"},
	{"skills", "Skills"},
	{"commands", "Commands"},
	{"gates", "Quality gates"},
	{"cost", "Cost"},
	{"agent", "Working style"},
	{"worktrees", "Worktrees"},
	{"memory", "Memory"},
	{"sources", "Shared sources"},
	{"permissions", "Permissions"},
	{"mcp", "MCP servers"},
}

// Sections lists the sections in order.
func Sections() []Section { return slices.Clone(sections) }

// Section returns the name of the section the key belongs to.
func (k Key) Section() string { return k.segments()[0] }

// Sayings pairs each value with its sentence: value, sentence, value,
// sentence… (a slice, not a map, so that the schema stays static data).
type Sayings []string

// For is v's sentence, "" when it has none.
func (s Sayings) For(v string) string {
	for i := 0; i+1 < len(s); i += 2 {
		if s[i] == v {
			return s[i+1]
		}
	}
	return ""
}

// segments splits the dotted name; schema names are valid dot paths.
func (k Key) segments() []string {
	segs, err := dotpath.Segments(k.Name)
	if err != nil {
		panic(err)
	}
	return segs
}

// SchemaVersion changes whenever keys or their types change.
const SchemaVersion = 5

// The keys code reads by name (the gates'), named once here for the schema
// below and for their readers.
const (
	KeyGatesTestsCommand    = "gates.tests.command"
	KeyGatesTestsRequired   = "gates.tests.required"
	KeyGatesLintCommand     = "gates.lint.command"
	KeyGatesLintRequired    = "gates.lint.required"
	KeyGatesCoverageCommand = "gates.coverage.command"
	KeyGatesCoverageReport  = "gates.coverage.report"
	KeyGatesCoverageMin     = "gates.coverage.min"
	KeyGatesTimeout         = "gates.timeout"
	KeyGatesOnFailure       = "gates.on_failure"
	KeyGatesMaxBlocks       = "gates.max_blocks"
)

// KeySources lists a layer's shared sources (SPEC §15). Each layer's own
// list counts for that layer (core/sources reads them per layer); the
// effective value is only what the highest layer says.
const KeySources = "sources"

// schemaKeys is static data: the compiler lays it out in the binary, so no
// command, --version included, spends start-up building it (issue 39).
// Hence no map, no decimal and no call in it.
var schemaKeys = []Key{
	{Name: KeyRulesTier, Kind: Enum, Default: "balanced", Choices: []string{"minimal", "balanced", "full"},
		Description: "How many of charter's rules the agent follows: minimal, balanced or full.",
		// Rendered only while charter rules are active (apply.Library): the
		// tier chose them, and says how strictly to hold to them.
		Tell: Tell{Label: "Rule tier", Says: Sayings{
			"minimal", "Only the essential rules are active (safety, correctness and the quality gates below): follow them, and hold yourself to no style or process rule beyond them.",
			"balanced", "The essential rules and those that fit most tasks are active: follow each one that fits the task at hand.",
			"full", "Every rule is active, style and process rules included: follow each one on every task it applies to."}}},
	{Name: KeyRulesDisabled, Kind: List, Default: []string{}, Item: "rule name",
		Description: "Rules the agent must not apply, by name.",
		Tell:        Tell{Line: "Never apply these rules, wherever you find them"}},
	{Name: KeySkillsAutoload, Kind: Bool, Default: true,
		Description: "Load matching skills automatically when a task calls for them.",
		Tell: Tell{Says: Sayings{
			"true", "Load the skills that match the task automatically.",
			"false", "Do not load skills on your own; load one only when the user asks for it."}}},
	{Name: KeySkillsDisabled, Kind: List, Default: []string{}, Item: "skill name",
		Description: "Skills the agent must never load, by name.",
		Tell:        Tell{Line: "Never load these skills"}},
	{Name: "commands.suggestions.enabled", Kind: Bool, Default: true,
		Description: "Suggest slash commands that fit the current task.",
		Tell:        Tell{Says: Sayings{"false", "Do not suggest slash commands."}}},
	{Name: "commands.suggestions.max_options", Kind: Int, Default: int64(4), Min: "0", Max: "20",
		Description: "At most this many command suggestions at once.",
		Tell:        Tell{If: "commands.suggestions.enabled", Line: "When a slash command fits the task, suggest it: at most %s at once.", Zero: "Do not suggest slash commands."}},
	{Name: "commands.suggestions.confidence_floor", Kind: Decimal, Default: Dec("0.6"), Min: "0", Max: "1",
		Description: "Only suggest a command when the match confidence is at least this.",
		Tell:        Tell{If: "commands.suggestions.enabled", Line: "Suggest one only when your confidence that it fits is at least %s."}},
	{Name: KeyGatesTestsRequired, Kind: Bool, Default: true,
		Description: "Tests must pass before work is declared done.",
		Tell: Tell{Label: "tests", Gate: "The tests pass.", Command: KeyGatesTestsCommand,
			Unconfigured: "No test command is configured, so `charter gate run` does not check this: run the project's tests yourself and say which command you ran."}},
	{Name: KeyGatesLintRequired, Kind: Bool, Default: true,
		Description: "The linter must pass before work is declared done.",
		Tell: Tell{Label: "lint", Gate: "The linter passes.", Command: KeyGatesLintCommand,
			Unconfigured: "No lint command is configured, so `charter gate run` does not check this: run the project's linter yourself and say which command you ran."}},
	{Name: KeyGatesCoverageMin, Kind: Decimal, Default: Dec("0"), Min: "0", Max: "100",
		Description: "Minimum test coverage in percent (0 disables the gate).",
		Tell: Tell{Label: "coverage", Gate: "Test coverage is at least %s%%.", Command: KeyGatesCoverageCommand,
			Unconfigured: "No coverage command is configured, so `charter gate run` does not check this: measure coverage yourself and say how."}},
	{Name: KeyGatesTestsCommand, Kind: String, Default: "",
		Description: "The command that runs the tests, through the shell in the project root (empty: not configured).",
		Tell:        Tell{Line: "Run the tests with %s."}},
	{Name: KeyGatesLintCommand, Kind: String, Default: "",
		Description: "The command that runs the linter, through the shell in the project root (empty: not configured).",
		Tell:        Tell{Line: "Run the linter with %s."}},
	{Name: KeyGatesCoverageCommand, Kind: String, Default: "",
		Description: "The command that measures coverage and writes the report (empty: not configured).",
		Tell:        Tell{Line: "Measure coverage with %s."}},
	{Name: KeyGatesCoverageReport, Kind: String, Default: "",
		Description: "The coverage report the coverage command writes, relative to the project root (Go cover profile, LCOV or Cobertura XML).",
		Tell:        Tell{Line: "The coverage gate reads its figure from %s."}},
	{Name: KeyGatesTimeout, Kind: Duration, Default: "10m", MaxDuration: time.Hour,
		Description: "How long one gate may run before it is stopped, e.g. 90s or 10m (at most 1h).",
		// Claude Code and Codex get charter's Stop hook (apply installs it), but
		// the block itself sends every agent to the gates: other agents have no
		// such hook, and Codex runs one only once the user has trusted it.
		Tell: Tell{Line: "Before you declare work done, run `charter gate run` and fix what it reports until it exits 0 (each gate may run for %s). In Claude Code and Codex, charter's Stop hook runs it for you when you stop."}},
	{Name: KeyGatesMaxBlocks, Kind: Int, Default: int64(3), Min: "1", Max: "10",
		Description: "How many times in a row charter's Stop hook keeps an agent working while a gate fails, before it lets it stop.",
		Tell:        Tell{Line: "When charter's Stop hook keeps you working because a gate fails, fix the failure; after %s such blocks in a row it lets you stop, and you must then say plainly that gates still fail."}},
	{Name: KeyGatesOnFailure, Kind: Enum, Default: "stop", Choices: []string{"stop", "ask", "warn"},
		Description: "What the agent does when a gate fails: stop, ask the user, or warn and go on.",
		Tell: Tell{Says: Sayings{
			"stop", "If a gate fails, stop: report what failed and do not declare the work done.",
			"ask", "If a gate fails, ask the user how to proceed before you go on.",
			"warn", "If a gate fails, say so plainly in your reply, then go on."}}},
	{Name: "cost.budget.daily", Kind: Decimal, Default: Dec("0"), Min: "0", Unit: "in your billing currency",
		Description: "Daily spending budget (0 means no budget).",
		Tell:        Tell{Line: "Daily budget: %s.", Zero: "Daily budget: none."}},
	{Name: "cost.budget.monthly", Kind: Decimal, Default: Dec("0"), Min: "0", Unit: "in your billing currency",
		Description: "Monthly spending budget (0 means no budget).",
		Tell:        Tell{Line: "Monthly budget: %s.", Zero: "Monthly budget: none."}},
	{Name: "cost.enforcement", Kind: Enum, Default: "advisory", Choices: []string{"advisory", "hard-stop"},
		Description: "Whether a reached budget only warns (advisory) or stops work (hard-stop).",
		Tell: Tell{Label: "Enforcement", Says: Sayings{
			"advisory", "When a budget is reached, tell the user and go on.",
			"hard-stop", "When a budget is reached, stop work and tell the user."}}},
	{Name: "agent.autonomy", Kind: Enum, Default: "auto", Choices: []string{"off", "auto", "on"},
		Description: "How freely the agent acts without asking: off, auto or on.",
		Tell: Tell{Label: "Autonomy", Says: Sayings{
			"off", "Ask before every change, command or file write.",
			"auto", "Act on routine, reversible steps without asking; ask before anything destructive, irreversible or outside the task.",
			"on", "Act without asking, except before destructive or irreversible actions."}}},
	{Name: "agent.minimal_output", Kind: Bool, Default: true,
		Description: "Keep the agent's replies short and free of filler.",
		Tell: Tell{Says: Sayings{
			"true", "Output: **minimal**. Keep replies short: results first, no filler, no recaps.",
			"false", "Output: **full**. Replies may be as detailed as the task needs."}}},
	{Name: "worktrees.mode", Kind: Enum, Default: "ask", Choices: []string{"off", "on", "ask"},
		Description: "Whether the agent works in separate git worktrees: off, on, or ask first.",
		Tell: Tell{Label: "Worktrees", Says: Sayings{
			"off", "Work in the current checkout; do not create git worktrees.",
			"on", "Do each task in its own git worktree.",
			"ask", "Ask the user before starting a task in a separate git worktree."}}},
	{Name: "memory.cadence", Kind: Enum, Default: "always", Choices: []string{"auto", "always", "never"},
		Description: "When the agent records what it learned to memory: auto, always or never.",
		Tell: Tell{Label: "Memory", Says: Sayings{
			"auto", "Record what you learned to memory when it will matter later.",
			"always", "Record what you learned to memory at the end of every task.",
			"never", "Do not record anything to memory."}}},
	{Name: KeySources, Kind: List, Default: []string{}, Item: "source",
		Description: "Shared git sources of rules, skills, commands and subagents this layer takes, pinned in sources.lock beside this file: URL#ref=REF&path=DIR&name=NAME (after # optional). Change them with `charter sources add|update|remove`."},
	// The permission lists add up across layers (SPEC §14): each layer's
	// own list counts, and a policy's deny and ask cannot be loosened.
	{Name: KeyPermissionsDeny, Kind: List, Default: []string{}, Item: "rule", ItemCheck: ruleProblem, ItemPattern: rulePattern,
		Description: "What agents must never do, added up over every layer: shell:PREFIX, read:GLOB, write:GLOB, web:DOMAIN, mcp:SERVER[/TOOL]. Deny beats ask beats allow."},
	{Name: KeyPermissionsAsk, Kind: List, Default: []string{}, Item: "rule", ItemCheck: ruleProblem, ItemPattern: rulePattern,
		Description: "What agents must ask the user before doing, added up over every layer, in the same grammar as permissions.deny."},
	{Name: KeyPermissionsAllow, Kind: List, Default: []string{}, Item: "rule", ItemCheck: ruleProblem, ItemPattern: rulePattern,
		Description: "What agents may do without asking, added up over every layer; never loosens a policy's deny or ask."},
	{Name: KeyMCPDisabled, Kind: List, Default: []string{}, Item: "server name", ItemCheck: serverNameProblem, ItemPattern: serverNamePattern,
		Description: "MCP servers of mcp.servers (of any layer) not to project here, by name; servers the policy requires cannot be disabled."},
}

func schema() []Key { return schemaKeys }

// Keys returns the schema in its canonical order.
func Keys() []Key { return slices.Clone(schema()) }

// Lookup finds a key by its dotted name. A scan of a few dozen names
// costs less than building an index would at start-up.
func Lookup(name string) (Key, bool) {
	for _, k := range schemaKeys {
		if k.Name == name {
			return k, true
		}
	}
	return Key{}, false
}

// isSection: name is a section of the schema, such as rules or
// commands.suggestions (a proper prefix of a key, ending at a dot).
func isSection(name string) bool {
	for _, k := range schemaKeys {
		if len(k.Name) > len(name) && k.Name[len(name)] == '.' && k.Name[:len(name)] == name {
			return true
		}
	}
	return false
}

// Names lists every key name, sorted.
func Names() []string {
	out := make([]string, len(schema()))
	for i, k := range schema() {
		out[i] = k.Name
	}
	sort.Strings(out)
	return out
}
