package apply

import (
	"bytes"
	"slices"

	"github.com/agentkit/charter/core/agents"
	"github.com/agentkit/charter/core/lazy"
	"github.com/agentkit/charter/core/projection"
	"github.com/agentkit/charter/core/settings"
)

// renderers make a target's new bytes from its old ones (nil: absent) and
// the rendered block, one per file format of the agent table. A new format
// is one entry here.
var renderers = lazy.Value[map[agents.Format]func(a agents.Agent, path string, old, block []byte) ([][]byte, error)]{Make: func() map[agents.Format]func(a agents.Agent, path string, old, block []byte) ([][]byte, error) {
	return map[agents.Format]func(a agents.Agent, path string, old, block []byte) ([][]byte, error){
		agents.FormatBlock: func(_ agents.Agent, path string, old, block []byte) ([][]byte, error) {
			return spliceParts(path, old, block)
		},
		agents.FormatRules: func(a agents.Agent, _ string, _, block []byte) ([][]byte, error) {
			return [][]byte{rulesFile(a, block)}, nil
		},
	}
}}

// rulesFront is the frontmatter of a rules file charter owns whole: Cursor
// loads a rule with alwaysApply: true into every request, whatever files
// are open (globs left empty), and shows the description in its settings.
const rulesFront = "---\n" +
	"description: Charter settings for this project, written by charter apply; change them with charter settings\n" +
	"globs:\n" +
	"alwaysApply: true\n" +
	"---\n"

// rulesFile is the whole rules file: the frontmatter of an always-on rule
// in the agent's format, then the block. The file is charter's, so a
// user's edit is replaced (the block says so).
func rulesFile(a agents.Agent, block []byte) []byte {
	if f := a.Project.Rules.Format; f != "" && f != "cursor" {
		return projection.AlwaysRule(f, rulesDescription, block)
	}
	return append([]byte(rulesFront), block...)
}

const rulesDescription = "Charter settings for this project, written by charter apply; change them with charter settings"

// projectHeading is where the block's heading ends; the precedence
// paragraph of a project block follows it.
const projectHeading = "## Charter settings\n\n"

// projectPrecedence tells the agent which block wins when it reads both.
const projectPrecedence = "These are this project's settings. Where they differ from the charter block in your user-level instruction file, follow these.\n\n"

// projectBlock turns the user-level block into the project's: it names the
// project rather than the scope's directory (the file is shared through
// git; no one's home belongs in it), names the project's commands and says
// that it takes precedence.
func projectBlock(snap *settings.Snapshot, block []byte) []byte {
	// Only the opening lines say these, before the first section: a block
	// holding every rule (Codex, Gemini) is not copied once per phrase.
	n := bytes.Index(block, []byte("\n### "))
	if n < 0 {
		n = len(block)
	}
	head := bytes.Replace(block[:n], []byte(" for "+scopeText(snap.Scope)+"."), []byte(" for this project."), 1)
	// The fixes the block names are the project's: `settings set` alone
	// would change the user's settings.
	head = bytes.Replace(head, []byte("`charter settings set`"), []byte("`charter settings set --project`"), 1)
	head = bytes.Replace(head, []byte("then run `charter apply`"), []byte("then run `charter apply --project`"), 1)
	at := bytes.Index(head, []byte(projectHeading))
	if at < 0 {
		at = len(BeginMarker) + 1 // after the begin marker's line
	} else {
		at += len(projectHeading)
	}
	return slices.Concat(head[:at], []byte(projectPrecedence), head[at:], block[n:])
}
