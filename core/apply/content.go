package apply

import (
	"fmt"
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/content"
	"github.com/agentkit/charter/core/projection"
)

// Content is what apply projects besides the instruction files: the active
// rules, skills, commands and subagents of the level (SPEC §12).
type Content struct {
	Items    []content.Item  // the active set (states active and policy)
	Autoload bool            // skills.autoload
	Force    bool            // take foreign and edited files over
	Adopt    map[string]bool // files taken over that charter did not write (import's)
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
}

// Budget is the always-loaded instructions apply projects for one agent.
type Budget struct {
	Agent string `json:"agent"`
	Bytes int    `json:"bytes"`
	Limit int    `json:"limit"` // 0: no documented limit
}

// Over reports whether the agent's documented limit is passed.
func (b Budget) Over() bool { return b.Limit > 0 && b.Bytes > b.Limit }

// limits are the documented caps on always-loaded instructions: Codex
// reads at most 32 KiB of AGENTS.md (project_doc_max_bytes).
var limits = map[string]int{"codex": 32 << 10}

// contentFor projects c for one agent at a level: its files placed under
// base (the agent's directory, or the project root), the rules its block
// carries, and the line the block says about rules.
func contentFor(sys *core.System, a core.Agent, level, base string, c *Content) (files []projection.Placed, gaps []projection.Gap, rules string, always int) {
	lvl := content.LevelUser
	if level == LevelProject {
		lvl = content.LevelProject
	}
	out := projection.Project(a.Name, c.Items, projection.Options{Level: lvl, Autoload: c.Autoload})
	n := 0
	for _, f := range out.Files {
		p := sys.Paths.Join(append([]string{base}, strings.Split(f.Rel, "/")...)...)
		files = append(files, projection.Placed{File: f, Path: p})
		if f.Kind == content.KindRule {
			n++
		}
		if f.Always {
			always += len(f.Data)
		}
	}
	for _, g := range out.Gaps {
		if g.Kind == content.KindRule {
			n++
		}
	}
	return files, out.Gaps, rulesSection(a, lvl, n, out.BlockRules), always
}

// rulesSection is what the managed block says about charter's rules: how
// many are active and where they are, or the rules themselves for an agent
// without a rules folder.
func rulesSection(a core.Agent, level string, inFiles int, block []content.Item) string {
	var b strings.Builder
	b.WriteString("\n### Charter rules\n\n")
	switch {
	case len(block) > 0:
		fmt.Fprintf(&b, "%s active; %s below. Follow each one where it applies.\n", count(len(block)), them(len(block)))
		for _, r := range block {
			fmt.Fprintf(&b, "\n#### %s\n\n", r.Name)
			if len(r.Globs) > 0 {
				b.WriteString(strings.TrimSuffix(projection.GlobLine(r.Globs), "\n"))
			}
			b.WriteString(strings.TrimRight(string(r.Body), "\n"))
			b.WriteString("\n")
		}
	case inFiles > 0:
		prefix, _ := projection.Layout(a.Name, level, content.KindRule)
		fmt.Fprintf(&b, "%s active, each in its own file in `%s` (loaded by you as its globs say).\n", count(inFiles), strings.TrimSuffix(prefix, "/"))
	default:
		b.WriteString("No charter rule is active.\n")
	}
	return b.String()
}

func count(n int) string {
	if n == 1 {
		return "1 charter rule is"
	}
	return fmt.Sprintf("%d charter rules are", n)
}

func them(n int) string {
	if n == 1 {
		return "it follows"
	}
	return "they follow"
}

// withRules puts the rules section at the end of a block, before its end
// marker.
func withRules(block []byte, section string) []byte {
	end := []byte(EndMarker)
	i := len(block) - len(end) - 1
	if section == "" || i < 0 || string(block[i:i+len(end)]) != EndMarker {
		return block
	}
	out := make([]byte, 0, len(block)+len(section))
	out = append(out, block[:i]...)
	out = append(out, section...)
	return append(out, block[i:]...)
}

// budgets measures, per agent, its instruction file as apply leaves it
// plus the projected files it loads in every session. A file Plan did not
// hold whole is measured on disk when current, else as at least its block.
func budgets(sys *core.System, sel []core.Agent, targets []Target, always map[string]int) []Budget {
	out := make([]Budget, 0, len(sel))
	for _, a := range sel {
		b := Budget{Agent: a.Name, Bytes: always[a.Name], Limit: limits[a.Name]}
		for _, t := range targets {
			if t.Agent != a.Name || (t.block == nil && t.New == nil) {
				continue
			}
			size := len(t.New)
			if t.New == nil {
				if fi, err := sys.Fs.Stat(t.Path); err == nil {
					size = int(fi.Size())
				}
				if !t.current {
					size = max(size, len(t.block))
				}
			}
			b.Bytes += size
			break
		}
		out = append(out, b)
	}
	return out
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

// RunAll writes the whole plan: nothing at all when a projected file
// conflicts or any file lies behind an unconfirmed shared link; then the
// projected files, then the instruction files and hook entries.
func RunAll(sys *core.System, f *Full, confirm bool) ([]Result, error) {
	if f.Content != nil {
		if err := f.Content.Conflict(); err != nil {
			return nil, err
		}
	}
	if err := f.Guard(sys, confirm); err != nil {
		return nil, err
	}
	if f.Content != nil {
		if err := f.Content.Run(sys, confirm); err != nil {
			return nil, err
		}
	}
	return Run(sys, f.Targets, confirm)
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
