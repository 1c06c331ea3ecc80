package apply

import (
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/projection"
)

// BlockedError is a Run that left targets unwritten because they lie behind
// a link the companion shares. It unwraps to each *core.SharedWriteError.
type BlockedError struct {
	Results []Result
	Files   []projection.Entry // the projected files, when the whole plan was refused (Full.Refused)
	errs    []error
}

func (e *BlockedError) Error() string {
	msgs := make([]string, len(e.errs))
	for i, err := range e.errs {
		msgs[i] = err.Error()
	}
	return strings.Join(msgs, "; ")
}

func (e *BlockedError) Unwrap() []error { return e.errs }

func (e *BlockedError) Code() string { return core.CodeSharedWrite }

// Extras are the first blocked write's (the link, the choices) plus every
// target with its state, so a client sees what was written and what not.
func (e *BlockedError) Extras() map[string]any {
	x := map[string]any{"targets": e.Results}
	if e.Files != nil {
		x["files"] = e.Files
	}
	if len(e.errs) > 0 {
		for k, v := range core.ErrorExtras(e.errs[0]) {
			x[k] = v
		}
	}
	return x
}
