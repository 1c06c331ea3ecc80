package projection

import (
	"context"
	"strings"
	"sync/atomic"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/content"
	"github.com/agentkit/charter/core/fsys"
)

// Check is the verdict on the plan before anything is written: a
// conflict, then an unconfirmed shared link. A plan that passed is not
// checked again by Run.
func (p *Plan) Check(confirm bool) error {
	if err := p.Conflict(); err != nil {
		return err
	}
	if err := p.Guard(confirm); err != nil {
		return err
	}
	p.checked, p.checkedConfirm = true, confirm
	return nil
}

// Guard is the shared-link verdict on a plan: a *core.SharedWriteError for
// the first file behind a link the companion shares when confirm is not
// set, else nil. Checked before anything at all is written.
func (p *Plan) Guard(confirm bool) error {
	if confirm {
		return nil
	}
	if b := p.Blocked(); len(b) > 0 {
		return &core.SharedWriteError{Target: *b[0].Path, SharedPath: b[0].SharedPath}
	}
	return nil
}

// Run carries the plan out: nothing when it has a conflict or an
// unconfirmed shared link. Otherwise, under one lock (the record's):
// every new file is staged beside its target, all are made durable
// together (fsys.SyncStaged), renamed into place, each directory synced
// once; pruned files are deleted with the folders made for them once
// empty; the record is written last. A run killed anywhere leaves no torn
// file (renames are atomic), and every file it renamed either is in the
// record or holds exactly the bytes the next plan projects (then it is
// current, and recorded by that run).
//
// A cancelled ctx stops it between files, before the record is written:
// the files it renamed hold the bytes the next plan projects, the others
// and the record are as they were, and no temporary file is left.
func (p *Plan) Run(ctx context.Context, sys *core.System, confirm bool) error {
	return p.RunAlongside(ctx, sys, confirm, Alongside{})
}

// Alongside is what a caller runs with a plan's writes (RunAlongside).
type Alongside struct {
	// Stage runs before the files are staged: the files it stages are
	// made durable with them, by the same sync. It does not run when
	// nothing is to be written.
	Stage func() []*fsys.Prepared
	// After runs once the files are written, in the caller's goroutine
	// while another saves the stat cache: the cache's stamps and its
	// write overlap the caller's next writes (an apply's instruction
	// files), which touch none of the projected files; so does the sync
	// of the record's folder after its rename. It does not run when Run
	// fails.
	After func()
}

// RunAlongside is Run with a caller's work alongside it.
func (p *Plan) RunAlongside(ctx context.Context, sys *core.System, confirm bool, along Alongside) error {
	wrote, recorded, err := p.run(ctx, sys, confirm, along.Stage)
	if err != nil {
		if recorded != nil {
			recorded.Close()
		}
		return err
	}
	finish := func() {
		if recorded != nil {
			fsys.SyncDir(recorded)
			recorded.Close()
		}
		p.saveStat(sys, wrote)
	}
	if along.After == nil {
		finish()
		return nil
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		finish()
	}()
	along.After()
	<-done
	return nil
}

// run is Run without the stat cache; wrote: it wrote, pruned or recorded.
// recorded, when not nil, is the record's target, renamed and its lock
// let go: the caller syncs its folder and closes it.
func (p *Plan) run(ctx context.Context, sys *core.System, confirm bool, stage func() []*fsys.Prepared) (wrote bool, recorded *fsys.Target, err error) {
	if !p.checked || (p.checkedConfirm && !confirm) {
		if err := p.Check(confirm); err != nil {
			return false, nil, err
		}
	}
	if ctx.Err() != nil {
		return false, nil, ctx.Err()
	}
	if !p.Changes() {
		// A killed run's temporary record goes even when nothing changes.
		sys.RemoveStaleTemps(p.req.RecordPath, fsys.WriteOptions{ConfirmShared: confirm, Within: p.req.Root})
		return false, nil, nil
	}
	err = sys.WithLock(p.req.RecordPath, func() error {
		// The record is staged with the files, so the one syncfs before
		// their renames makes its bytes durable too; it is renamed last,
		// after their renames are durable and the prune is done. Under
		// this lock a temporary record a killed run left is stale however
		// young (else `git add .charter` commits it).
		o := fsys.WriteOptions{ConfirmShared: confirm, Owned: p.req.Root == "", NewMode: 0o644, Within: p.req.Root, Locked: true, Whole: true}
		rec, err := sys.StageFile(p.req.RecordPath, o, p.record.Encode())
		if err != nil {
			return err
		}
		committed := false
		defer func() {
			if !committed {
				rec.Abort()
			}
			if recorded == nil {
				rec.Target().Close()
			}
		}()
		if err := p.writeAll(ctx, sys, confirm, rec, stage); err != nil {
			return err
		}
		if err := p.prune(sys, confirm); err != nil {
			return err
		}
		if ctx.Err() != nil {
			return ctx.Err() // the record stays the old one
		}
		committed = true
		if err := rec.Commit(); err != nil {
			return err
		}
		// Its folder is synced once the lock is let go (RunAlongside):
		// the record is in place, as the next run under the lock reads it.
		recorded = rec.Target()
		for i := range p.Entries {
			if p.Entries[i].held {
				continue
			}
			switch p.Entries[i].State {
			case StateMissing, StateOutdated, StateForeign, StateEdited:
				p.Entries[i].State = StateWritten
			}
		}
		return nil
	})
	return err == nil, recorded, err
}

// writeAll stages, syncs and renames the plan's files; rec, the staged
// record, and the files stage stages are made durable with them and left
// for the caller to rename.
func (p *Plan) writeAll(ctx context.Context, sys *core.System, confirm bool, rec *fsys.Staged, stage func() []*fsys.Prepared) error {
	var extra []*fsys.Prepared
	if stage != nil {
		// First: the folders it makes are then there for the walks below,
		// which would otherwise make them too.
		extra = stage()
	}
	stager, err := sys.Stager(fsys.WriteOptions{ConfirmShared: confirm, Within: p.req.Root, Whole: true})
	if err != nil {
		return err
	}
	defer stager.Close() // after every target below is closed
	files := make([]fsys.File, len(p.writes))
	for i, f := range p.writes {
		files[i] = fsys.File{Path: f.Path, Mode: f.Mode, Data: f.Data}
	}
	staged, err := stager.StageAll(ctx, files)
	if err != nil {
		return err
	}
	defer func() {
		for _, s := range staged {
			if s != nil {
				s.Abort()
				s.Target().Close()
			}
		}
	}()
	if ctx.Err() != nil {
		return ctx.Err() // the deferred Abort removes every staged file
	}
	if err := fsys.SyncStagedWith(append(staged[:len(staged):len(staged)], rec), extra); err != nil {
		return err
	}
	// Each folder's renames in one goroutine, folders at once; after a
	// failure no further rename starts, and what is left is removed.
	groups := fsys.Groups(len(staged), func(i int) string { return staged[i].Target().Dir })
	targets := make([]*fsys.Target, len(staged))
	for i, s := range staged {
		targets[i] = s.Target()
	}
	after := make([]stampAt, len(staged))
	var failed atomic.Bool
	err = fsys.Parallel(len(groups), func(k int) error {
		for _, i := range groups[k] {
			if failed.Load() {
				return nil
			}
			if ctx.Err() != nil {
				failed.Store(true)
				return ctx.Err()
			}
			err := staged[i].Commit()
			a := &after[i]
			a.st, a.taken, a.ok = staged[i].Stamp()
			staged[i] = nil
			if err != nil {
				failed.Store(true)
				return err
			}
		}
		return nil
	})
	for i, s := range staged {
		if s != nil {
			s.Abort()
			staged[i] = nil
		}
	}
	if err == nil {
		err = stager.Publish()
	}
	fsys.SyncDirs(targets)
	if err == nil && p.stat.cache != nil {
		p.stat.after = after
	}
	closeAll(targets)
	return err
}

func closeAll(ts []*fsys.Target) {
	for _, t := range ts {
		t.Close()
	}
}

// prune deletes the recorded files of items no longer active, then a
// skill's folders once empty: never a folder that holds anything else.
func (p *Plan) prune(sys *core.System, confirm bool) error {
	o := fsys.WriteOptions{ConfirmShared: confirm, Within: p.req.Root, Whole: true}
	dirs := map[string]bool{}
	for _, f := range p.deletes {
		if err := sys.RemoveFile(f.Path, o); err != nil {
			return err
		}
		if f.Kind != content.KindSkill {
			continue
		}
		slash := strings.ReplaceAll(f.Path, "\\", "/")
		i := strings.LastIndex(slash, "/"+f.Item+"/")
		if i < 0 {
			continue
		}
		top := f.Path[:i+1+len(f.Item)]
		for d := sys.Paths.Dir(f.Path); len(d) >= len(top); d = sys.Paths.Dir(d) {
			dirs[d] = true
			if d == top {
				break
			}
		}
	}
	// Deepest first, so a folder's empty subfolders go before it.
	list := make([]string, 0, len(dirs))
	for d := range dirs {
		list = append(list, d)
	}
	sortDeepFirst(list)
	for _, d := range list {
		if _, err := sys.RemoveEmptyDir(d, o); err != nil {
			return err
		}
	}
	return nil
}

func sortDeepFirst(ds []string) {
	for i := 1; i < len(ds); i++ {
		for j := i; j > 0 && less(ds[j], ds[j-1]); j-- {
			ds[j], ds[j-1] = ds[j-1], ds[j]
		}
	}
}

func less(a, b string) bool {
	if len(a) != len(b) {
		return len(a) > len(b)
	}
	return a < b
}
