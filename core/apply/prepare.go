package apply

import (
	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/fsys"
)

// prepared is the targets' writes made ahead of Run (fsys.Prepare) while
// the projected files are staged, durable with them: Run then renames
// each in place without an fsync of its own, where the file is still as
// it was read. By target index; nil where none was made.
type prepared []*fsys.Prepared

// prepare makes ahead the write of each target out of date in Run's
// first two waves: not the governance record, which waits for every
// other file's edit, nor a file charter's block leaves, which may be
// deleted rather than written.
func prepare(sys *core.System, targets []Target, confirm bool) prepared {
	out := make(prepared, len(targets))
	for i := range targets {
		t := &targets[i]
		if t.last || t.current || t.unplace || t.SharedPath != "" && !confirm {
			continue
		}
		var r Result
		var drop bool
		out[i] = sys.Prepare(t.Path, t.writeOptions(confirm), t.update(&r, &drop))
	}
	return out
}

// list is the files prepared, for the projection to make durable.
func (p prepared) list() []*fsys.Prepared {
	var out []*fsys.Prepared
	for _, w := range p {
		if w != nil {
			out = append(out, w)
		}
	}
	return out
}

func (p prepared) of(i int) *fsys.Prepared {
	if p == nil {
		return nil
	}
	return p[i]
}

// sync makes the renames of those committed durable, all at once.
func (p prepared) sync() {
	fsys.SyncPrepared(p.list())
}

// abort removes every prepared file Run did not rename.
func (p prepared) abort() {
	for _, w := range p {
		if w != nil {
			w.Abort()
		}
	}
}
