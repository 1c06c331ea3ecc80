package apply

import (
	"bytes"
	"slices"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/fsys"
	"github.com/agentkit/charter/core/planmemo"
	"github.com/agentkit/charter/core/projection"
)

// Memo adds to w every file a run of f rested on, once RunAll reported
// rep, and returns the report the next run gives while none of them
// changes: each file written is then current. False when that run would
// report otherwise (a file blocked, pruned or in conflict, an ignored
// record entry), or a target does not hold what f makes of it now.
func (f *Full) Memo(sys *core.System, rep FullReport, w *planmemo.Watch) (FullReport, bool) {
	if len(rep.Targets) != len(f.Targets)+len(f.Skipped) || len(rep.Ignored) > 0 {
		return rep, false
	}
	next := rep
	next.Targets = slices.Clone(rep.Targets)
	var check, last []int
	for i, r := range next.Targets {
		switch r.State {
		case StateSkipped:
			continue
		case StateWritten:
			next.Targets[i].State = StateCurrent
		case StateCurrent:
		default:
			return rep, false
		}
		if f.Targets[i].last {
			last = append(last, i)
		} else {
			check = append(check, i)
		}
	}
	// Each target read again and checked at once (AGENTS.md and CLAUDE.md
	// can be megabytes), as Run writes them: the governance record, which
	// each other file's edit settles, after them. Watched in order after.
	checked := make([]settled, len(next.Targets))
	for _, wave := range [][]int{check, last} {
		fsys.Parallel(len(wave), func(k int) error {
			i := wave[k]
			checked[i] = f.Targets[i].settle(sys, rep.Targets[i].State == StateWritten)
			return nil
		})
	}
	for i, r := range next.Targets {
		switch s := checked[i]; {
		case r.State == StateSkipped:
			if r.Path != "" && r.Path != "-" {
				w.Path(r.Path)
			}
		case !s.ok:
			return rep, false
		case s.absent:
			w.Path(f.Targets[i].Path) // absent, as Run leaves it
		default:
			w.File(f.Targets[i].Path, s.sum, s.wrote)
		}
	}
	if f.Content != nil {
		ok := f.Content.Files(sys, func(path, sum string, wrote bool, after *fsys.Stamp) {
			switch {
			case sum == "": // the record: its bytes as they are now
				w.Read(path, wrote)
			case after != nil:
				w.Written(path, sum, *after)
			default:
				w.File(path, sum, wrote)
			}
		})
		if !ok {
			return rep, false
		}
		next.Files = slices.Clone(rep.Files)
		for i := range next.Files {
			if next.Files[i].State == projection.StateWritten {
				next.Files[i].State = projection.StateCurrent
			}
		}
	}
	// Detection and placement look for each agent's file: its absence
	// is watched too (a folder's stamp would be, since Run writes in it).
	if f.root != "" {
		for _, a := range sys.AgentTable.All() {
			w.Path(a.ProjectPath(sys.Paths, f.root))
		}
	}
	if home, err := codexHome(sys); err == nil {
		w.Path(sys.Paths.Join(home, CodexConfigFile)) // Codex's reviews: the notes
	}
	return next, true
}

// settled is what settle found of a target: ok when it holds what f
// makes of it, then absent or its bytes' sum.
type settled struct {
	ok, absent, wrote bool
	sum               string
}

// settle reads the target as it is now and checks that its bytes are
// what f makes of them (a file changed since Run is not vouched for).
func (t Target) settle(sys *core.System, wrote bool) settled {
	data, err := t.read(sys)
	if err != nil {
		return settled{}
	}
	current := false
	if t.block != nil {
		current, err = holdsBlock(t.Path, bytes.NewReader(data), t.block)
		current = current && data != nil
	} else {
		var parts [][]byte
		parts, err = t.edit(data)
		current = unchanged(data, parts)
	}
	if err != nil || !current {
		return settled{}
	}
	if data == nil {
		return settled{ok: true, absent: true}
	}
	return settled{ok: true, sum: planmemo.Sum(data), wrote: wrote}
}

// Root is the project's root the plan is for; "" at user level.
func (f *Full) Root() string { return f.root }
