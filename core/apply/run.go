package apply

import (
	"context"
	"errors"
	"io"
	"sync"
	"sync/atomic"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/fsys"
	"github.com/agentkit/charter/core/projection"
)

// Run writes every target that is out of date. A target behind a shared
// link is written through it only when confirmShared is set; otherwise it
// is reported as blocked and the others still run. When any target was
// blocked the error is a *BlockedError, and the results are still valid.
//
// The targets are written in three waves, each file's targets in order
// and the files of a wave at once (each write waits on its own fsyncs,
// under its own locks; the lock table's order rules out a cycle, one
// lock at a time per goroutine): first the instruction files, which only
// Run reads (a link to a device or a file over its cap fails here, as
// it failed first when one after another, and then nothing else is
// written); then the agents' other files, which Plan read; last the
// record of charter's entries, which each file's edit settles. The
// second wave starts once every instruction file is read, checked and
// written to its temporary name, while they are made durable: only a
// failed fsync or rename of one can then come after it started. A wave
// with an error is the last: the files written are whole, the others as
// they were, and the error is the first target's that failed.
func Run(ctx context.Context, sys *core.System, targets []Target, confirmShared bool) ([]Result, error) {
	return run(ctx, sys, targets, confirmShared, nil)
}

// run is Run, committing the targets prep made ahead where they still
// apply.
func run(ctx context.Context, sys *core.System, targets []Target, confirmShared bool, prep prepared) ([]Result, error) {
	out := make([]Result, len(targets))
	errs := make([]error, len(targets))
	var waves [3][]int
	for i, t := range targets {
		w := 1
		switch {
		case t.last:
			w = 2
		case t.block != nil:
			w = 0
		}
		waves[w] = append(waves[w], i)
	}
	var failed atomic.Bool
	start := func(wave []int, written *sync.WaitGroup) *sync.WaitGroup {
		var wg sync.WaitGroup
		for _, g := range fsys.Groups(len(wave), func(k int) string { return targets[wave[k]].Path }) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for n, k := range g {
					i := wave[k]
					done := func() {}
					if written != nil {
						done = sync.OnceFunc(written.Done)
					}
					out[i], errs[i] = runTarget(ctx, sys, targets[i], confirmShared, prep.of(i), done)
					if errs[i] != nil && !isShared(errs[i]) {
						failed.Store(true) // before done: the next wave must see it
						done()
						// The group's later targets never run. No Add(0): once the
						// count is zero, Wait may be returning.
						if rest := len(g[n+1:]); written != nil && rest > 0 {
							written.Add(-rest)
						}
						return
					}
					done()
				}
			}()
		}
		return &wg
	}
	var written sync.WaitGroup
	written.Add(len(waves[0]))
	first := start(waves[0], &written)
	written.Wait()
	if !failed.Load() {
		start(waves[1], nil).Wait()
	}
	first.Wait()
	if !failed.Load() {
		start(waves[2], nil).Wait()
	}
	prep.sync()
	var blocked []error
	for i := range targets {
		switch err := errs[i]; {
		case err == nil:
		case isShared(err):
			blocked = append(blocked, err)
		default:
			return nil, err
		}
	}
	if len(blocked) > 0 {
		return out, &BlockedError{Results: out, errs: blocked}
	}
	return out, nil
}

func isShared(err error) bool {
	var se *core.SharedWriteError
	return errors.As(err, &se)
}

// runTarget writes t when it is out of date; a *core.SharedWriteError
// comes with its result blocked. written runs once the new bytes are in
// the file's temporary name, before they are made durable. ahead, when
// not nil, is t's write prepared ahead: renamed in place when the file is
// still as it was read then, else written here as ever.
func runTarget(ctx context.Context, sys *core.System, t Target, confirmShared bool, ahead *fsys.Prepared, written func()) (Result, error) {
	if ctx.Err() != nil {
		return Result{}, Stopped(ctx)
	}
	r := Result{Agent: t.Agent, Level: t.Level, Path: t.Path, State: StateCurrent, SharedPath: t.SharedPath, Readers: t.Readers}
	if ahead != nil && sys.CommitPrepared(ahead) {
		written()
		r.State, r.Notes = StateWritten, codexNotes(sys, t)
		return r, nil
	}
	// A file already current is left alone: no lock, and no block for a
	// shared file that would not change. The file may have changed since
	// Plan, so this looks again. A file Plan found outdated and that no
	// shared link guards goes straight to the lock, which reads it anyway.
	if t.current || (t.SharedPath != "" && !confirmShared) {
		current, err := t.stillCurrent(sys)
		if err != nil {
			return r, err
		}
		if current {
			r.Notes = codexNotes(sys, t)
			return r, nil
		}
	}
	// Under the lock the file is read once more and edited.
	opts := t.writeOptions(confirmShared)
	opts.Written = written
	drop := false
	err := sys.UpdateFileStream(t.Path, opts, t.update(&r, &drop))
	if err == nil && drop {
		r.State, err = projection.StatePruned, dropEmptied(sys, t, opts)
	}
	var se *core.SharedWriteError
	switch {
	case errors.As(err, &se):
		r.State, r.SharedPath, r.Readers = StateBlocked, se.SharedPath, se.Readers
		return r, se
	case err != nil:
		return r, err
	}
	r.Notes = codexNotes(sys, t)
	return r, nil
}

// update is t's edit of the file as read (nil: it does not exist), as
// UpdateFileStream takes it: an instruction file as a stream, the text
// around the block copied from the old file to the new; any other whole,
// as small as it is. It marks r written when it writes, and sets drop
// when the edit leaves a file charter's entries alone made empty.
func (t Target) update(r *Result, drop *bool) func(old afero.File) (func(w io.Writer) error, error) {
	if t.block != nil {
		return func(old afero.File) (func(w io.Writer) error, error) {
			if old == nil {
				r.State = StateWritten
				return func(w io.Writer) error { _, err := w.Write(t.block); return err }, nil
			}
			sc, err := scanBlock(t.Path, old, t.block)
			if err != nil || sc.current(len(t.block)) {
				return nil, err
			}
			r.State = StateWritten
			return func(w io.Writer) error { return spliceTo(w, old, sc, t.block) }, nil
		}
	}
	return fsys.PartsUpdate(t.Path, t.kind, func(old []byte) ([][]byte, error) {
		parts, err := t.edit(old)
		*drop = err == nil && t.unplace && parts == nil && len(old) > 0
		if err != nil || unchanged(old, parts) || parts == nil {
			return nil, err // parts nil: to be absent, as it is (or empty)
		}
		r.State = StateWritten
		return parts, nil
	})
}
