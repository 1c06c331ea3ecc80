// Package apply makes the settings govern: it renders the effective
// settings of a scope into the instruction file each agent reads (CLAUDE.md,
// AGENTS.md), inside a block between charter's markers. Text outside the
// block is the user's and is kept byte for byte.
//
// Plan reads and checks every target before anything is written; Status
// reports what Plan found; Run writes through core's one guarded, atomic
// path. The CLI (`charter apply`) and the HTTP API call these same functions.
package apply

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/fsys"
	"github.com/agentkit/charter/core/gates"
	"github.com/agentkit/charter/core/projection"
)

// States of a target in a Result.
const (
	StateWritten  = "written"  // Run replaced the file
	StateCurrent  = "current"  // the file already holds this block
	StateBlocked  = "blocked"  // Run did not write: a shared link, not confirmed
	StateOutdated = "outdated" // Status: Run would change the file
)

// Target is one file apply writes (an agent's instruction file, or the
// project's .mcp.json) and what applying makes of it.
type Target struct {
	Agent      string // the agent, or MCPTarget
	Level      string // LevelUser or LevelProject
	Path       string
	SharedPath string // the link the companion shares that Path lies behind, if any
	// Readers are the profiles whose share links lead to SharedPath when
	// it is a shared source rather than a link on the way.
	Readers []string
	// Old is the file as read, nil when it does not exist, and New the file
	// as Run would write it. Both are nil in a plan made with
	// Request.RunOnly, which holds no copy of a file, and for an
	// instruction file, which Plan streams.
	Old, New []byte
	missing  bool // the file did not exist when Plan read it
	current  bool // Plan found the file as Run would leave it
	// edit is the new file for old as parts written one after the other
	// (nil: no file), slices of old where it is kept.
	edit func(old []byte) ([][]byte, error)
	// block, for an instruction file, is the block edit splices in: such a
	// file is streamed, by Plan and by Run, never held whole.
	block []byte
	diff  string    // Plan's diff of an instruction file, read from a window
	kind  fsys.Kind // what the file is, for the cap on reading it
	// within is the project root for a project target: the file must
	// resolve inside it, for reads and writes alike (core.Confine).
	within string
	// linkTo, for a project instruction file, is where a link in the
	// project may lead it (links.go); nil: nowhere.
	linkTo []string
	// hook is the agent whose Stop hook entry the file holds, when isHook.
	hook   gates.HookKind
	isHook bool
	// unplace: the target takes charter's block out of a file the
	// placement no longer uses (placed.go), deleting a file left empty.
	unplace bool
	gov     bool // the file holds charter's permission or server entries
	private bool // created 0600: charter's own state under the config root
	last    bool // Run writes it once every other target is written
}

// Governs reports whether the target edits charter's permission and
// server entries (SPEC §14) in its file.
func (t Target) Governs() bool { return t.gov }

// unchanged reports whether parts leave the file old as it is (a file that
// does not exist stays so when parts is nil). It compares in place: the
// parts are never joined.
func unchanged(old []byte, parts [][]byte) bool {
	switch {
	case parts == nil: // no file: an empty one is as good as none
		return len(old) == 0
	case old == nil:
		return false
	}
	for _, p := range parts {
		if len(p) > len(old) || !bytes.Equal(p, old[:len(p)]) {
			return false
		}
		old = old[len(p):]
	}
	return len(old) == 0
}

// whole is one part, or none for no file.
func whole(data []byte) [][]byte {
	if data == nil {
		return nil
	}
	return [][]byte{data}
}

// join is parts as one file, nil for none.
func join(parts [][]byte) []byte {
	if parts == nil {
		return nil
	}
	return bytes.Join(parts, []byte{})
}

// MCPTarget names the project's .mcp.json in a report: apply --project
// registers charter's MCP server there.
const MCPTarget = "mcp"

// MCPFile is the project's MCP registration file.
const MCPFile = ".mcp.json"

// Current reports whether the file already is what Run would write.
func (t Target) Current() bool { return t.current }

// StopHook tells whether the file is an agent's hook file, and whose.
func (t Target) StopHook() (gates.HookKind, bool) { return t.hook, t.isHook }

// Missing reports whether the file did not exist when Plan read it.
func (t Target) Missing() bool { return t.missing }

// Report is what apply tells: `charter apply --json` prints it and the
// HTTP API answers with it. Agents names every agent charter knows, so that
// a client never keeps its own list.
type Report struct {
	Agents  []string `json:"agents"`
	Targets []Result `json:"targets"`
}

// NewReport is the report of results for sys's agents.
func NewReport(sys *core.System, results []Result) Report {
	return Report{Agents: sys.AgentTable.Names(), Targets: results}
}

// FullReport is apply's document in every skin (`apply --json`, the HTTP
// API): the instruction files and hook entries, one entry per projected
// file and the budget per agent, both arrays even when empty.
type FullReport struct {
	Report
	Files  []projection.Entry `json:"files"`
	Budget []Budget           `json:"budget"`
	// Ignored are the record's entries no projector produces: charter
	// did not act on them, and a run drops them from the record.
	Ignored []projection.Ignored `json:"ignored"`
	// Unsupported are the permission rules and MCP servers a selected
	// agent cannot express at this level (SPEC §14): never written.
	Unsupported []GovUnsupported `json:"unsupported"`
	// Kept are permission and server entries charter left as the user's:
	// added or changed by hand (SPEC §14).
	Kept []GovKept `json:"kept"`
}

// NewFullReport is the report of results, with full's projected files.
func NewFullReport(sys *core.System, results []Result, full *Full) FullReport {
	rep := FullReport{Report: NewReport(sys, slices.Concat(results, full.Skipped)), Files: []projection.Entry{}, Budget: full.Budget, Ignored: []projection.Ignored{}}
	if full.Content != nil && full.Content.Entries != nil {
		rep.Files = full.Content.Entries
	}
	if full.Content != nil && full.Content.Ignored != nil {
		rep.Ignored = full.Content.Ignored
	}
	if rep.Budget == nil {
		rep.Budget = []Budget{}
	}
	rep.Unsupported, rep.Kept = full.Unsupported, full.Kept()
	if rep.Kept == nil {
		rep.Kept = []GovKept{}
	}
	if rep.Unsupported == nil {
		rep.Unsupported = []GovUnsupported{}
	}
	return rep
}

// Result is one target in a report.
type Result struct {
	Agent      string   `json:"agent"`
	Level      string   `json:"level"`
	Path       string   `json:"path"`
	State      string   `json:"state"`
	SharedPath string   `json:"sharedPath,omitempty"`
	Readers    []string `json:"readers,omitempty"` // the profiles reading a shared source
	// Reason says why an agent was skipped (StateSkipped).
	Reason  string `json:"reason,omitempty"`
	Diff    string `json:"diff,omitempty"`    // Status only: what Run would change
	Missing bool   `json:"missing,omitempty"` // Status only: the file does not exist yet
	// Notes say what the user must do before the agent acts on the file
	// (Codex skips a hook until it is reviewed); Run only.
	Notes []Note `json:"notes,omitempty"`
}

// ReadersText names the profiles reading the shared source ("" when none).
func (r Result) ReadersText() string {
	if len(r.Readers) == 0 {
		return ""
	}
	return core.ReadersText(r.Readers)
}

// Status reports each target as current or outdated, with a unified diff of
// what Run would change.
func Status(targets []Target) []Result {
	out := make([]Result, len(targets))
	for i, t := range targets {
		out[i] = Result{Agent: t.Agent, Level: t.Level, Path: t.Path, State: StateCurrent, SharedPath: t.SharedPath, Readers: t.Readers}
		if !t.Current() {
			out[i].State = StateOutdated
			out[i].Diff = t.diff
			if t.Old != nil || t.New != nil {
				out[i].Diff = Diff(t.Path, t.Old, t.New)
			}
			out[i].Missing = t.missing
		}
	}
	return out
}

// Check is the verdict of `apply --check` on a Status report: an error
// coded outdated when any target is out of date, else nil. command is the
// apply that brings them up to date (`charter apply --project` for a
// project's files).
func Check(results []Result, command string) error {
	n := 0
	for _, r := range results {
		if r.State == StateOutdated {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	return core.Errorf(core.CodeOutdated, "%d of %d agent files out of date: run `%s`", n, len(results), command)
}

// Stopped is the error of a run whose ctx was cancelled between files:
// the files written are whole, the others as they were.
func Stopped(ctx context.Context) error {
	why := "cancelled"
	if c := context.Cause(ctx); c != nil && c != context.Canceled {
		why = c.Error()
	}
	return core.Errorf(core.CodeInternal, "%s", fmt.Sprintf("stopped (%s) before every file was written: each file is either as it was or as apply writes it; run the same command again to finish", why))
}

// stillCurrent reports whether the file now holds the block. While it is
// what Plan read, which it compares in small pieces, Plan's verdict stands
// and the file is not held in memory a second time.
func (t Target) stillCurrent(sys *core.System) (bool, error) {
	if t.Old != nil {
		same, err := t.sameContent(sys, t.Old)
		if err != nil || same {
			return t.current, err
		}
	}
	if t.Old == nil && t.block != nil {
		_, current, err := t.stream(sys)
		return current, err
	}
	old, err := t.read(sys)
	if err != nil {
		return false, err
	}
	parts, err := t.edit(old)
	if err != nil {
		return false, err
	}
	return unchanged(old, parts), nil
}

// stream reads the file a piece at a time and reports whether it is
// missing and whether it already is what Run would make of it.
func (t Target) stream(sys *core.System) (missing, current bool, err error) {
	f, err := t.open(sys)
	if errors.Is(err, fs.ErrNotExist) {
		parts, err := t.edit(nil)
		return true, unchanged(nil, parts), err
	}
	if err != nil {
		return false, false, fsys.ReadError(t.Path, err)
	}
	defer f.Close()
	current, err = holdsBlock(t.Path, f, t.block)
	return false, current, err
}
