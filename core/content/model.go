// Package content holds the rules, skills, commands and subagents charter
// governs (SPEC §12): where their sources live at each layer, what they
// say, which are active, and how each agent receives them.
package content

// Kind is one of the four kinds of item.
type Kind string

const (
	KindRule     Kind = "rule"
	KindSkill    Kind = "skill"
	KindCommand  Kind = "command"
	KindSubagent Kind = "subagent"
)

// Kinds lists the kinds in the order they are shown and projected.
func Kinds() []Kind { return []Kind{KindRule, KindSkill, KindCommand, KindSubagent} }

// Dir is the kind's folder inside a layer's source folder.
func (k Kind) Dir() string {
	switch k {
	case KindRule:
		return "rules"
	case KindSkill:
		return "skills"
	case KindCommand:
		return "commands"
	case KindSubagent:
		return "subagents"
	}
	return ""
}

// Levels an item is projected at.
const (
	LevelUser    = "user"    // the agent's folder of the active profile
	LevelProject = "project" // the repository
)

// Rule tiers, lowest first.
const (
	TierMinimal  = "minimal"
	TierBalanced = "balanced"
	TierFull     = "full"
)

// States of an item in the effective set.
const (
	StateActive    = "active"
	StateDisabled  = "disabled"   // named in rules.disabled / skills.disabled
	StateBelowTier = "below_tier" // a rule above rules.tier
	StatePolicy    = "policy"     // an administrator's item: always active
)

// Item is one rule, skill, command or subagent as its source says it.
type Item struct {
	Kind  Kind   `json:"kind"`
	Name  string `json:"name"`
	Layer string `json:"layer"`  // the settings layer whose folder holds it: global, scope, project, policy
	Level string `json:"level"`  // user or project
	Path  string `json:"origin"` // the source file, absolute (SKILL.md for a skill): its origin, as settings say
	// Source is the shared source the item came from (SPEC §15); nil for
	// a layer's own folder.
	Source *SourceRef `json:"source,omitempty"`

	Description string   `json:"description"`
	Tier        string   `json:"tier,omitempty"`         // rule: minimal, balanced (default) or full
	Globs       []string `json:"globs,omitempty"`        // rule: project-relative globs; none = always loaded
	Agents      []string `json:"agents,omitempty"`       // rule: the agents that get it; none = all
	OnRequest   bool     `json:"onRequest,omitempty"`    // rule: alwaysApply: false and no globs: Cursor loads it when asked
	ArgHint     string   `json:"argumentHint,omitempty"` // command: argument-hint
	Tools       []string `json:"tools,omitempty"`        // subagent
	Model       string   `json:"model,omitempty"`        // subagent

	// Front is the frontmatter as written (without the --- lines), so that
	// a skill's other keys reach the agent as they are.
	Front []byte `json:"-"`
	// Keys is Front split at its top-level keys (KeyTexts), split once at
	// parsing: each agent's projector passes some of them on.
	Keys []KeyText `json:"-"`
	// Body is everything after the frontmatter, byte for byte.
	Body []byte `json:"-"`
	// Files are a skill's other files, relative to its folder, sorted.
	Files []File `json:"-"`
}

// SourceRef is where a shared source's item came from: the source's
// name, its URL, the pinned commit and the folder of the repository.
type SourceRef struct {
	Name   string `json:"name"`
	URL    string `json:"url"`
	Commit string `json:"commit"`
	Path   string `json:"path,omitempty"`
}

// File is one supporting file of a skill.
type File struct {
	Rel  string // slash-separated, relative to the skill's folder
	Data []byte // nil when the library was loaded by LoadNames
	Exec bool   // the source is executable: the projected copy is too
}

// Key identifies an item: a higher layer's item of the same key replaces
// a lower one whole.
func (it *Item) Key() string { return string(it.Kind) + "/" + it.Name }
