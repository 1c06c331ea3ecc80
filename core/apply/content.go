package apply

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/agents"
	"github.com/agentkit/charter/core/content"
	"github.com/agentkit/charter/core/fsys"
	"github.com/agentkit/charter/core/projection"
)

// Content is what apply projects besides the instruction files: the active
// rules, skills, commands and subagents of the level (SPEC §12).
type Content struct {
	Items    []content.Item  // the active set (states active and policy)
	Autoload bool            // skills.autoload
	Force    bool            // take foreign and edited files over
	Adopt    map[string]bool // files taken over that charter did not write (import's)
	Hold     map[string]bool // foreign files left as they are (import's clashes)
	// RecordPath is the scope's state/projection.json at user level; the
	// project's lock is always <root>/.charter/projection.lock.
	RecordPath string
}

// Full is a whole apply, planned before anything is written: instruction
// files and hook entries (Targets) and the projected files (Content).
type Full struct {
	Targets []Target
	Content *projection.Plan // nil when no content was asked for
	Budget  []Budget
	root    string // the project root the budget's files are relative to; "" at user level
	// Skipped are the agents a user-level apply inside a profile leaves
	// alone (profileskip.go), with the reason: reported, never written.
	Skipped []Result
	// Unsupported are the permission rules and MCP servers a selected
	// agent cannot express at this level (SPEC §14).
	Unsupported []GovUnsupported
	// checked: Check passed (with checkedConfirm), so RunAll does not
	// check again.
	checked, checkedConfirm bool
	book                    *govBook // the record of permission and server entries
}

// Kept are the permission and server entries apply left to the user.
func (f *Full) Kept() []GovKept {
	if f.book == nil {
		return nil
	}
	return f.book.keptList()
}

// Budget is the always-loaded instructions apply projects for one agent.
type Budget struct {
	Agent string `json:"agent"`
	Bytes int    `json:"bytes"`
	Limit int    `json:"limit"` // 0: no documented limit
	// Files are the files counted, each once: in a project every file
	// the agent reads at start, its own and other agents' (relative to the
	// project root); at user level its instruction file.
	Files []string `json:"files,omitempty"`
	reads []string // every file the plan looked at, there or not: measured counts them after a run
}

// Over reports whether the agent's documented limit is passed.
func (b Budget) Over() bool { return b.Limit > 0 && b.Bytes > b.Limit }

// Library is what the managed block says about charter's content for one
// agent at one level: the rules and skills it has, and where. The zero
// Library (no content) makes a block that says nothing about rules or
// skills, whose settings only matter once some exist.
type Library struct {
	Rules      int            // active rules in their own files, for this agent
	RulesDir   string         // where those files are, e.g. ".claude/rules"
	BlockRules []content.Item // active rules the block carries itself (Codex, Gemini)
	Skills     int            // active skills projected for this agent
	SkillsDir  string
}

// ruleCount is every active rule the agent gets.
func (l Library) ruleCount() int { return l.Rules + len(l.BlockRules) }

// contentFor projects c for one agent at a level: its files placed under
// base (the agent's directory, or the project root), and what the block
// says about them.
func contentFor(sys *core.System, a agents.Agent, level, base string, c *Content, pl placement) (files []projection.Placed, gaps []projection.Gap, lib Library, always int) {
	lvl := content.LevelUser
	if level == LevelProject {
		lvl = content.LevelProject
	}
	out := projection.Project(a, c.Items, projection.Options{Level: lvl, Autoload: c.Autoload, RulesInBlock: pl.inline, NoRules: pl.served()})
	skills := map[string]bool{}
	for _, f := range out.Files {
		p := sys.Paths.Join(append([]string{base}, strings.Split(f.Rel, "/")...)...)
		files = append(files, projection.Placed{File: f, Path: p})
		switch f.Kind {
		case content.KindRule:
			lib.Rules++
		case content.KindSkill:
			skills[f.Item] = true
		}
		if f.Always {
			always += len(f.Data)
		}
	}
	lib.BlockRules, lib.Skills = out.BlockRules, len(skills)
	// A project's block names its folders relative to the root (it is
	// committed); a user-level block names them whole, so that the agent
	// never looks for them in the project.
	where := func(k content.Kind) string {
		prefix, _ := projection.Layout(a, lvl, k)
		prefix = strings.TrimSuffix(prefix, "/")
		if level == LevelProject {
			return prefix
		}
		return sys.Paths.Join(append([]string{base}, strings.Split(prefix, "/")...)...)
	}
	if lib.Rules > 0 {
		lib.RulesDir = where(content.KindRule)
	}
	if lib.Skills > 0 {
		lib.SkillsDir = where(content.KindSkill)
	}
	return files, out.Gaps, lib, always
}

// intro is the first line of the block's rules or skills section: how many
// are active and where they are; "" when there are none (the section is
// then left out).
func (l Library) intro(section string) string {
	// A folder's name is one line: it can never forge a marker.
	l.RulesDir, l.SkillsDir = clean(l.RulesDir), clean(l.SkillsDir)
	switch section {
	case "rules":
		switch {
		case len(l.BlockRules) > 0 && l.Rules > 0:
			return fmt.Sprintf("%s active: %d in `%s/` (loaded as their globs say) and %d written out below.",
				count(l.ruleCount(), "rule"), l.Rules, l.RulesDir, len(l.BlockRules))
		case len(l.BlockRules) > 0:
			return fmt.Sprintf("%s active, written out below. Follow each one where it applies.", count(len(l.BlockRules), "rule"))
		case l.Rules > 0 && l.RulesDir == "": // no agent named
			return fmt.Sprintf("%s active (`charter rules list` shows them).", count(l.Rules, "rule"))
		case l.Rules == 1:
			return fmt.Sprintf("1 charter rule is active, in its own file in `%s/` (loaded as its globs say).", l.RulesDir)
		case l.Rules > 0:
			return fmt.Sprintf("%s active, each in its own file in `%s/` (loaded as its globs say).", count(l.Rules, "rule"), l.RulesDir)
		}
	case "skills":
		if l.Skills > 0 && l.SkillsDir == "" {
			return fmt.Sprintf("%s active (`charter skills list` shows them).", count(l.Skills, "skill"))
		}
		if l.Skills == 1 {
			return fmt.Sprintf("1 charter skill is active, in its own folder in `%s/`.", l.SkillsDir)
		}
		if l.Skills > 0 {
			return fmt.Sprintf("%s active, each in its own folder in `%s/`.", count(l.Skills, "skill"), l.SkillsDir)
		}
	}
	return ""
}

// blockRules are the rules the block carries, one heading each.
// blockSize is about the bytes blockRules gives.
func (l Library) blockSize() int {
	n := 0
	for _, r := range l.BlockRules {
		n += len(r.Name) + len(r.Body) + 64
	}
	return n
}

// writeBlockRules writes each rule the block holds whole: its heading,
// the files it is meant for and its body, each body copied once.
func (l Library) writeBlockRules(b *bytes.Buffer) {
	for _, r := range l.BlockRules {
		b.WriteString("\n#### ")
		b.WriteString(r.Name)
		b.WriteString("\n\n")
		if len(r.Globs) > 0 {
			b.WriteString(projection.GlobLine(r.Globs)) // one line: never a marker
		}
		body := bytes.TrimRight(r.Body, "\n")
		if bytes.Contains(body, []byte(markerText)) {
			b.WriteString(unmark(string(body)))
		} else {
			b.Write(body) // no line can be a marker
		}
		b.WriteByte('\n')
	}
}

// markerText begins both markers.
const markerText = "<!-- charter:"

// unmark escapes a line of a rule's body that would read as one of the
// block's markers: a rule is repository input, and inside the block an end
// marker would cut it short (a begin marker break it) on the next apply.
// The backslash keeps the line as it reads in Markdown.
func unmark(body string) string {
	if !strings.Contains(body, markerText) { // no line can be a marker
		return body
	}
	lines := strings.Split(body, "\n")
	for i, l := range lines {
		if marker([]byte(l), BeginMarker) || marker([]byte(l), EndMarker) {
			lines[i] = "\\" + strings.TrimLeft(l, " \t")
		}
	}
	return strings.Join(lines, "\n")
}

func count(n int, what string) string {
	if n == 1 {
		return "1 charter " + what + " is"
	}
	return fmt.Sprintf("%d charter %ss are", n, what)
}

// Guard is the shared-link verdict on the whole plan, before anything is
// written: the first file behind a link the companion shares, unconfirmed.
func (f *Full) Guard(sys *core.System, confirm bool) error {
	if confirm {
		return nil
	}
	for _, t := range f.Targets {
		if t.SharedPath == "" {
			continue
		}
		// A shared file already as apply leaves it is not written at all.
		current, err := t.stillCurrent(sys)
		if err != nil {
			return err
		}
		if !current {
			return &core.SharedWriteError{Target: t.Path, SharedPath: t.SharedPath, Readers: t.Readers}
		}
	}
	if f.Content != nil {
		return f.Content.Guard(false)
	}
	return nil
}

// Check is the verdict on the whole plan before anything is written: a
// projected file charter does not own (a conflict), then the first file
// behind an unconfirmed shared link. A plan that passed is not checked
// again by RunAll.
func (f *Full) Check(sys *core.System, confirm bool) error {
	if f.Content != nil {
		if err := f.Content.Conflict(); err != nil {
			return err
		}
	}
	if err := f.Guard(sys, confirm); err != nil {
		return err
	}
	if f.Content != nil {
		if err := f.Content.Check(confirm); err != nil {
			return err
		}
	}
	f.checked, f.checkedConfirm = true, confirm
	return nil
}

// RunAll writes the whole plan: nothing at all when a projected file
// conflicts or any file lies behind an unconfirmed shared link (Check,
// unless the caller checked already); then the projected files, then the
// instruction files and hook entries. When projected files are written,
// the others out of date are written ahead of them, made durable by the
// projection's sync and renamed after it, each only if still as read
// (prepare). A cancelled ctx stops it between files: each file is then
// either as it was or as planned.
func RunAll(ctx context.Context, sys *core.System, f *Full, confirm bool) ([]Result, error) {
	if !f.checked || (f.checkedConfirm && !confirm) {
		if err := f.Check(sys, confirm); err != nil {
			return nil, err
		}
	}
	var results []Result
	var err error
	var prep prepared
	defer func() { prep.abort() }()
	along := projection.Alongside{
		// The files out of date are written ahead, made durable by the
		// projection's own sync, and only renamed after it.
		Stage: func() []*fsys.Prepared {
			prep = prepare(sys, f.Targets, confirm)
			return prep.list()
		},
		After: func() { results, err = run(ctx, sys, f.Targets, confirm, prep) },
	}
	if f.Content == nil {
		along.After()
	} else if cerr := f.Content.RunAlongside(ctx, sys, confirm, along); cerr != nil {
		if ctx.Err() != nil {
			return nil, Stopped(ctx)
		}
		return nil, cerr
	}
	if err == nil && f.Budget != nil {
		f.Budget = measured(sys, f.root, f.Budget)
	}
	return results, err
}

// Unwritten is the report of a plan refused before any write: each target
// behind an unconfirmed shared link blocked, the others as Plan found them.
func Unwritten(sys *core.System, targets []Target) []Result {
	out := make([]Result, len(targets))
	for i, t := range targets {
		r := Result{Agent: t.Agent, Level: t.Level, Path: t.Path, State: StateOutdated, SharedPath: t.SharedPath, Readers: t.Readers}
		current, err := t.stillCurrent(sys)
		switch {
		case err == nil && current:
			r.State = StateCurrent
		case t.SharedPath != "":
			r.State = StateBlocked
		}
		out[i] = r
	}
	return out
}

// Refused is the error of a whole plan refused before any write because a
// file lies behind an unconfirmed shared link (err, from Guard): every
// target and projected file with its state, none written, so that a
// client shows what would have been written and what is blocked.
func (f *Full) Refused(sys *core.System, err error) *BlockedError {
	b := &BlockedError{Results: slices.Concat(Unwritten(sys, f.Targets), f.Skipped), errs: []error{err}}
	if f.Content != nil {
		b.Files = f.Content.Unwritten()
	}
	return b
}
