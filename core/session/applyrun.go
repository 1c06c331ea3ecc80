package session

import (
	"context"
	"errors"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/apply"
)

// ApplyReport is apply's one document in every skin (`apply --json`, the
// HTTP API's body, the 409's targets and files): the instruction files,
// the projected files and the budget, each with its state.
type ApplyReport struct {
	apply.FullReport
	// outdated counts the projected files `apply --check` fails on.
	outdated int
}

// Check is the verdict of `apply --check` on a report made with DryRun:
// an error coded outdated when any target or projected file is out of
// date, else nil. fix is the apply that brings them up to date.
func (r *ApplyReport) Check(fix string) error {
	if err := apply.Check(r.Targets, fix); err != nil {
		return err
	}
	if r.outdated > 0 {
		return core.Errorf(core.CodeOutdated, "%d projected file(s) missing, outdated, foreign or edited: run `%s`", r.outdated, fix)
	}
	return nil
}

// Apply is the whole apply workflow: plan everything, refuse on a
// projected file charter does not own, ask about (or refuse) a shared
// link, then write, and report. With req.DryRun it writes nothing and
// reports each file as current or outdated, with its diff.
//
// A write refused at a shared link returns the report of the unwritten
// plan (the blocked files `blocked`, the others as planned) with an error
// coded shared_write, or cancelled when req.Confirm said no: nothing was
// written. Any other error returns a nil report.
func (s *Session) Apply(ctx context.Context, req ApplyRequest) (*ApplyReport, error) {
	req.RunOnly = !req.DryRun // only a status shows a diff
	// One project, a few hundred walks: each starts from the folders the
	// last ones opened rather than from "/" (fsys.Files.Hold).
	defer s.Sys.Files.Hold()()
	// Nothing the last run rested on changed: its report, without a plan.
	memo := s.ApplyMemo(ctx, req)
	if rep, ok := memo.Replay(); ok && ctx.Err() == nil {
		return &ApplyReport{FullReport: rep}, nil
	}
	if req.Planning != nil {
		req.Planning()
	}
	req.snap = memo.Snapshot() // the settings the memo is keyed on
	full, err := s.PlanAll(ctx, req)
	if err != nil {
		return nil, err
	}
	if req.DryRun {
		return s.applyReport(apply.Status(full.Targets), full), nil
	}
	confirm, err := s.checkApply(full, req)
	if code := core.ErrorCode(err); code == core.CodeSharedWrite || code == core.CodeCancelled {
		b := full.Refused(s.Sys, err)
		rep := s.applyReport(nil, full)
		rep.Targets = b.Results
		if b.Files != nil {
			rep.Files = b.Files
		}
		if code == core.CodeCancelled {
			return rep, err
		}
		return rep, b // its extras are the report's targets and files
	}
	if err != nil {
		return nil, err
	}
	// The memo's stamps of the sources are taken while the files are written.
	memo.WatchSources()
	defer memo.Settle()
	results, err := apply.RunAll(ctx, s.Sys, full, confirm)
	if err != nil {
		return nil, err
	}
	rep := s.applyReport(results, full)
	memo.Remember(full, rep.FullReport)
	return rep, nil
}

// checkApply decides, before anything is written, whether full may run:
// a conflict refuses it; a shared link refuses it unless confirmed, by
// the request or by req.Confirm (the command line's question). It returns
// whether shared links are confirmed.
func (s *Session) checkApply(full *apply.Full, req ApplyRequest) (bool, error) {
	err := full.Check(s.Sys, req.ConfirmShared)
	var se *core.SharedWriteError
	if err == nil || !errors.As(err, &se) {
		return req.ConfirmShared, err
	}
	if req.Confirm != nil {
		ok, perr := req.Confirm(se)
		if perr != nil {
			return false, perr
		}
		if ok {
			return true, full.Check(s.Sys, true)
		}
		return false, core.Errorf(core.CodeCancelled, "cancelled: nothing was written (%s is shared by agent-switch)", se.SharedPath)
	}
	return false, err
}

func (s *Session) applyReport(results []apply.Result, full *apply.Full) *ApplyReport {
	rep := &ApplyReport{FullReport: apply.NewFullReport(s.Sys, results, full)}
	if full.Content != nil {
		rep.outdated = full.Content.Outdated()
	}
	return rep
}
