package projection

import (
	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/fsys"
)

// Files calls each for every projected file a plan's report names, with
// the sha256 the record holds for it after Run and whether Run wrote it
// (and then, when Run stamped it after its renames, that stamp: the memo
// need not stat it again), then for the record itself (sum ""; wrote: Run
// wrote it). False, with nothing called, when a run's report would not be the next one's: a
// file pruned, held, blocked, in conflict or still to write, or a record
// entry ignored (planmemo keeps only a report the next run would repeat).
func (p *Plan) Files(sys *core.System, each func(path, sum string, wrote bool, after *fsys.Stamp)) bool {
	if len(p.Ignored) > 0 || len(p.conflicts) > 0 {
		return false
	}
	type one struct {
		path, sum string
		wrote     bool
	}
	out := make([]one, 0, len(p.Entries))
	for _, e := range p.Entries {
		if e.Path == nil {
			continue // unsupported: nothing on disk
		}
		if e.held || e.sum == "" || (e.State != StateCurrent && e.State != StateWritten) {
			return false
		}
		out = append(out, one{*e.Path, e.sum, e.State == StateWritten})
	}
	for _, o := range out {
		var after *fsys.Stamp
		if st, ok := p.stat.written[o.path]; ok && o.wrote {
			after = &st
		}
		each(o.path, o.sum, o.wrote, after)
	}
	each(p.req.RecordPath, "", p.Changes(), nil)
	return true
}
