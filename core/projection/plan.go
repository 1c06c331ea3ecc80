package projection

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
)

// States of a projected file in a report (SPEC §12 "Ownership").
const (
	StateWritten     = "written"     // Run wrote it
	StateCurrent     = "current"     // it already holds the projected bytes
	StateOutdated    = "outdated"    // recorded, unedited, and the sources changed
	StateMissing     = "missing"     // not on disk yet
	StateForeign     = "foreign"     // exists and charter never recorded it
	StateEdited      = "edited"      // recorded, and its bytes differ from the record
	StatePruned      = "pruned"      // recorded, its item is no longer active: deleted
	StateBlocked     = "blocked"     // behind a link the companion shares, not confirmed
	StateUnsupported = "unsupported" // the agent has no place for this kind
)

// Placed is a projected file with its absolute path.
type Placed struct {
	File
	Path string
}

// Request is one level's projection to plan.
type Request struct {
	Root       string // the project root at project level, "" at user level
	RecordPath string // projection.lock or the scope's projection.json
	Files      []Placed
	Gaps       []Gap
	Force      bool // take foreign and edited files over
	// Adopt are files charter takes over though it did not write them:
	// the native files `charter import` just turned into sources.
	Adopt map[string]bool
	// Hold are targets left as they are: not written, not recorded, and
	// no conflict (import's native files that clash with a source).
	Hold map[string]bool
	// Drop are native files import took over that no planned file is:
	// their agent reads the items in another agent's file, so they are
	// deleted, or it would read each twice (import kept their bytes).
	Drop []Placed
	// Others are the agents not planned: their recorded files are kept in
	// the record untouched, neither judged nor pruned (`--agent claude`
	// after `--agent all`).
	Others map[string]bool
	// Placed are the agents the record names as placed (Record.Agents).
	Placed []string
	// Table is the agent table (nil: the default one): a record entry is
	// claimed only for a path its agent's places produce (claim.go).
	Table []agents.Agent
	// Bases are, at user level, each agent's directory: a recorded path
	// outside its agent's is not charter's to act on (claim.go).
	Bases map[string]string
}

// Entry is one file in the report: `apply --json` prints one per file.
type Entry struct {
	Kind  string  `json:"kind"`
	Item  string  `json:"item"`
	Agent string  `json:"agent"`
	Path  *string `json:"path"` // null for unsupported
	State string  `json:"state"`
	// SharedPath is the companion's link the file lies behind, if any.
	SharedPath string `json:"sharedPath,omitempty"`
	// Note says what the agent's file leaves out of the source (File.Note).
	Note string `json:"note,omitempty"`
	held bool   // Request.Hold's: left as it is by Run
	sum  string // the sha256 the record holds for it after Run ("" when it holds none)
}

// Plan is what Run will do, decided before anything is written.
type Plan struct {
	Entries   []Entry
	req       Request
	writes    []write  // files to write, in path order
	deletes   []Placed // recorded files to delete (pruned)
	record    Record   // the record after Run
	oldRecord Record
	conflicts []string
	foreignOf []string // the agents whose files are foreign, for the fix
	stat      statPlan // what the stat cache knew and learned
	// Ignored are the old record's entries no projector produces: never
	// acted on, dropped from the record by Run.
	Ignored []Ignored
	// checked: Check passed (with checkedConfirm), so Run does not check
	// again.
	checked, checkedConfirm bool
}

// Changes reports whether Run would write or delete anything.
func (p *Plan) Changes() bool {
	return len(p.writes) > 0 || len(p.deletes) > 0 || !p.record.Same(p.oldRecord)
}

// recPath is path as the record holds it: relative to the project root at
// project level, absolute at user level.
func (r Request) recPath(sys *core.System, path string) string {
	if r.Root == "" {
		return path
	}
	rel, ok := sys.Paths.Within(r.Root, path)
	if !ok {
		return path
	}
	return strings.Join(rel, "/")
}

func (r Request) absPath(sys *core.System, rec string) string {
	if r.Root == "" {
		return rec
	}
	return sys.Paths.Join(append([]string{r.Root}, strings.Split(rec, "/")...)...)
}

// Make plans req: every target is read and given its state. A foreign or
// edited target without Force is a conflict: Conflict() says which. A
// cancelled ctx stops it between files with ctx's error; Make writes nothing.
func Make(ctx context.Context, sys *core.System, req Request) (*Plan, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	raw, err := ReadRecord(sys, req.RecordPath, req.Root)
	if err != nil {
		return nil, err
	}
	old, ignored := req.split(raw)
	p := &Plan{req: req, oldRecord: raw, record: Record{Version: RecordVersion, Agents: req.Placed}, Ignored: ignored}
	rd := sys.WholeReader(req.Root)
	defer rd.Close()
	recorded := old.index()
	planned := map[string]bool{}
	shared := sharedCache{sys: sys, rd: rd, dirs: map[string]string{}}
	files := slices.Clone(req.Files)
	slices.SortStableFunc(files, func(a, b Placed) int { return strings.Compare(a.Path, b.Path) })
	todo := make([]Placed, 0, len(files))
	paths, recPaths := make([]string, 0, len(files)), make([]string, 0, len(files))
	p.record.Files = make([]Recorded, 0, len(files))
	p.Entries = make([]Entry, 0, len(files))
	p.writes = make([]write, 0, len(files))
	for _, f := range files {
		rp := req.recPath(sys, f.Path)
		if planned[rp] {
			continue // the same file for two agents (.agents/skills): once
		}
		planned[rp] = true
		todo, paths, recPaths = append(todo, f), append(paths, f.Path), append(recPaths, rp)
	}
	sums := make([]string, len(todo))
	fsys.Parallel(len(todo), func(i int) error { sums[i] = Sum(todo[i].Data); return nil })
	disks, err := p.readTargets(sys, rd, todo, paths, recPaths, sums)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for i, f := range todo {
		rp, disk := recPaths[i], disks[i]
		rec, isRec := recorded[rp]
		state := StateCurrent
		switch {
		case !disk.exists:
			state = StateMissing
		case disk.same:
			// As projected, recorded or not: a run killed after its rename
			// and before its record left exactly this.
		case !isRec:
			state = StateForeign
		case disk.sum != rec.SHA256:
			state = StateEdited
		default:
			state = StateOutdated
		}
		held := state == StateForeign && req.Hold[f.Path] && !req.Force
		if !held {
			p.record.Files = append(p.record.Files, Recorded{Path: rp, SHA256: sums[i], Kind: string(f.Kind), Item: f.Item, Agent: f.Agent})
		}
		if (state == StateForeign || state == StateEdited) && !req.Force && !req.Adopt[f.Path] && !held {
			p.conflicts = append(p.conflicts, conflictLine(f.Path, state))
			if state == StateForeign && !slices.Contains(p.foreignOf, f.Agent) {
				p.foreignOf = append(p.foreignOf, f.Agent)
			}
		}
		e := entry(f.File, f.Path, state)
		e.held = held
		if !held {
			e.sum = sums[i]
		}
		if state != StateCurrent && !held {
			e.SharedPath, err = shared.of(f.Path)
			if err != nil {
				return nil, err
			}
			p.writes = append(p.writes, write{f, rp, sums[i]})
		}
		p.Entries = append(p.Entries, e)
	}
	var gone []Recorded
	paths = paths[:0]
	for _, r := range old.Files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if planned[r.Path] {
			continue
		}
		if req.Others[r.Agent] {
			p.record.Files = append(p.record.Files, r)
			continue
		}
		gone, paths = append(gone, r), append(paths, req.absPath(sys, r.Path))
	}
	disks = make([]seen, len(gone))
	if err := rd.ReadEach(paths, fsys.KindInstructions, func(i int, disk []byte) { disks[i] = see(disk, nil, false) }); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for i, r := range gone {
		path, disk := paths[i], disks[i]
		f := Placed{File: File{Agent: r.Agent, Kind: content.Kind(r.Kind), Item: r.Item}, Path: path}
		e := entry(f.File, path, StatePruned)
		switch {
		case !disk.exists: // gone already: only the record forgets it
		case disk.sum != r.SHA256 && !req.Force:
			e.State = StateEdited
			p.conflicts = append(p.conflicts, conflictLine(path, StateEdited))
		case disk.sum != r.SHA256:
			// --force: charter lets go of a file a person edited, and
			// leaves it where it is.
		default:
			if e.SharedPath, err = shared.of(path); err != nil {
				return nil, err
			}
			p.deletes = append(p.deletes, f)
		}
		p.Entries = append(p.Entries, e)
	}
	for _, f := range req.Drop {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if planned[req.recPath(sys, f.Path)] {
			continue
		}
		if _, err := sys.Fs.Stat(f.Path); err != nil {
			continue // gone already
		}
		e := entry(f.File, f.Path, StatePruned)
		if e.SharedPath, err = shared.of(f.Path); err != nil {
			return nil, err
		}
		p.deletes = append(p.deletes, f)
		p.Entries = append(p.Entries, e)
	}
	for _, g := range req.Gaps {
		p.Entries = append(p.Entries, Entry{Kind: string(g.Kind), Item: g.Item, Agent: g.Agent, State: StateUnsupported})
	}
	return p, nil
}

// write is a file Run writes, with its path in the record and the sum the
// record holds for it.
type write struct {
	Placed
	rec, sum string
}

func entry(f File, path, state string) Entry {
	return Entry{Kind: string(f.Kind), Item: f.Item, Agent: f.Agent, Path: &path, State: state, Note: f.Note}
}

func conflictLine(path, state string) string {
	if state == StateForeign {
		return path + " (foreign: charter did not write it)"
	}
	return path + " (edited by hand since charter wrote it)"
}

// Conflict is the error a plan with foreign or edited targets stops with:
// nothing is written.
func (p *Plan) Conflict() error {
	if len(p.conflicts) == 0 {
		return nil
	}
	// One file a line: a peer tool's move can name dozens. Each fix is
	// runnable as written, so a project's carry --project.
	flag := ""
	if p.req.Root != "" {
		flag = " --project"
	}
	fix := "move it away, or run `charter apply" + flag + " --force` to take it over"
	if len(p.foreignOf) > 0 {
		imports := make([]string, len(p.foreignOf))
		for i, a := range slices.Sorted(slices.Values(p.foreignOf)) {
			imports[i] = "`charter import --from " + a + flag + "`"
		}
		fix = "turn the file into a charter source with " + strings.Join(imports, " or ") + ", " + fix
	}
	return core.Errorf(core.CodeProjectionConflict,
		"%d projected file(s) would overwrite or delete a file charter does not own:\n  %s\nnothing was written: %s",
		len(p.conflicts), strings.Join(p.conflicts, "\n  "), fix)
}

// Blocked lists the files a write or delete would reach through a link the
// companion shares.
func (p *Plan) Blocked() []Entry {
	var out []Entry
	for _, e := range p.Entries {
		if e.SharedPath != "" && e.State != StateCurrent && e.State != StateUnsupported {
			out = append(out, e)
		}
	}
	return out
}

// Unwritten is the report of a plan refused before any write: each file a
// write or delete would reach through an unconfirmed shared link is
// blocked, the others as planned.
func (p *Plan) Unwritten() []Entry {
	out := slices.Clone(p.Entries)
	for i, e := range out {
		if e.SharedPath != "" && e.State != StateCurrent && e.State != StateUnsupported {
			out[i].State = StateBlocked
		}
	}
	return out
}

// Outdated counts the files `apply --check` fails on, and the record's
// ignored entries (the next run drops them).
func (p *Plan) Outdated() int {
	n := len(p.Ignored)
	for _, e := range p.Entries {
		switch e.State {
		case StateMissing, StateOutdated, StateForeign, StateEdited, StatePruned:
			n++
		}
	}
	return n
}

// sharedCache asks the guard once per directory.
type sharedCache struct {
	sys  *core.System
	rd   *fsys.Reader // its held directories: no walk from "/" per folder
	dirs map[string]string
}

func (c sharedCache) of(path string) (string, error) {
	dir := c.sys.Paths.Dir(path)
	if v, ok := c.dirs[dir]; ok {
		return v, nil
	}
	sh, err := c.rd.SharedAt(path)
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	v := sh.Path
	c.dirs[dir] = v
	return v, nil
}

// seen is what a plan keeps of a target's bytes on disk: whether it is
// there, whether it holds the projected bytes, else its sha256. The bytes
// themselves are dropped as soon as they are read, so a plan holds a few
// files at a time, whatever the size of the library.
type seen struct {
	exists, same bool
	sum          string
}

func see(disk, want []byte, compare bool) seen {
	if disk == nil {
		return seen{}
	}
	if compare && bytes.Equal(disk, want) {
		return seen{exists: true, same: true}
	}
	return seen{exists: true, sum: Sum(disk)}
}
