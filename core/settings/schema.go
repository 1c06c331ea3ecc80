// Package settings is charter's settings: one schema that drives validation,
// defaults, help, listing, the JSON Schema and the hub's form, and a layered
// YAML store whose writes keep the user's comments and unknown keys.
package settings

import (
	"slices"
	"sort"

	"github.com/shopspring/decimal"

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
)

// Key describes one setting.
type Key struct {
	Name        string // dotted, e.g. rules.tier
	Kind        Kind
	Default     any      // bool, int64, string (enum), Dec, []string
	Choices     []string // Enum
	Min, Max    *decimal.Decimal
	Description string
	Item        string // List: what one item names
}

// segments splits the dotted name; schema names are valid dot paths.
func (k Key) segments() []string {
	segs, err := dotpath.Segments(k.Name)
	if err != nil {
		panic(err)
	}
	return segs
}

func dec(s string) *decimal.Decimal { d := decimal.RequireFromString(s); return &d }

// SchemaVersion changes whenever keys or their types change.
const SchemaVersion = 1

var schema = []Key{
	{Name: "rules.tier", Kind: Enum, Default: "balanced", Choices: []string{"minimal", "balanced", "full"},
		Description: "How many of charter's rules the agent follows: minimal, balanced or full."},
	{Name: "rules.disabled", Kind: List, Default: []string{}, Item: "rule name",
		Description: "Rules the agent must not apply, by name."},
	{Name: "skills.autoload", Kind: Bool, Default: true,
		Description: "Load matching skills automatically when a task calls for them."},
	{Name: "skills.disabled", Kind: List, Default: []string{}, Item: "skill name",
		Description: "Skills the agent must never load, by name."},
	{Name: "commands.suggestions.enabled", Kind: Bool, Default: true,
		Description: "Suggest slash commands that fit the current task."},
	{Name: "commands.suggestions.confidence_floor", Kind: Decimal, Default: Dec("0.6"), Min: dec("0"), Max: dec("1"),
		Description: "Only suggest a command when the match confidence is at least this (0 to 1)."},
	{Name: "commands.suggestions.max_options", Kind: Int, Default: int64(4), Min: dec("0"), Max: dec("20"),
		Description: "At most this many command suggestions at once (0 to 20)."},
	{Name: "gates.tests.required", Kind: Bool, Default: true,
		Description: "Tests must pass before work is declared done."},
	{Name: "gates.lint.required", Kind: Bool, Default: true,
		Description: "The linter must pass before work is declared done."},
	{Name: "gates.coverage.min", Kind: Decimal, Default: Dec("0"), Min: dec("0"), Max: dec("100"),
		Description: "Minimum test coverage in percent (0 disables the gate)."},
	{Name: "gates.on_failure", Kind: Enum, Default: "stop", Choices: []string{"stop", "ask", "warn"},
		Description: "What the agent does when a gate fails: stop, ask the user, or warn and go on."},
	{Name: "cost.budget.daily", Kind: Decimal, Default: Dec("0"), Min: dec("0"),
		Description: "Daily spending budget (0 means no budget)."},
	{Name: "cost.budget.monthly", Kind: Decimal, Default: Dec("0"), Min: dec("0"),
		Description: "Monthly spending budget (0 means no budget)."},
	{Name: "cost.enforcement", Kind: Enum, Default: "advisory", Choices: []string{"advisory", "hard-stop"},
		Description: "Whether a reached budget only warns (advisory) or stops work (hard-stop)."},
	{Name: "agent.autonomy", Kind: Enum, Default: "auto", Choices: []string{"off", "auto", "on"},
		Description: "How freely the agent acts without asking: off, auto or on."},
	{Name: "agent.minimal_output", Kind: Bool, Default: true,
		Description: "Keep the agent's replies short and free of filler."},
	{Name: "worktrees.mode", Kind: Enum, Default: "ask", Choices: []string{"off", "on", "ask"},
		Description: "Whether the agent works in separate git worktrees: off, on, or ask first."},
	{Name: "memory.cadence", Kind: Enum, Default: "always", Choices: []string{"auto", "always", "never"},
		Description: "When the agent records what it learned to memory: auto, always or never."},
}

// Keys returns the schema in its canonical order.
func Keys() []Key { return slices.Clone(schema) }

// Lookup finds a key by its dotted name.
func Lookup(name string) (Key, bool) {
	i := slices.IndexFunc(schema, func(k Key) bool { return k.Name == name })
	if i < 0 {
		return Key{}, false
	}
	return schema[i], true
}

// Names lists every key name, sorted.
func Names() []string {
	out := make([]string, len(schema))
	for i, k := range schema {
		out[i] = k.Name
	}
	sort.Strings(out)
	return out
}
