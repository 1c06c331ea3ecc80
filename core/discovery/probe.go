package discovery

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/agentkit/charter/core"
)

// State is what a probe found out about a scope's server, for doctor.
type State struct {
	Discovery string // the discovery file's path
	Running   bool
	URL       string
	PID       int
	// Stale says why a discovery file that exists does not count; "" when
	// there is none or its server runs.
	Stale string
}

// Probe tells `charter doctor` whether a server of the scope runs, and
// whether a discovery file is left over from one that does not.
func Probe(sys *core.System, sc core.Scope) State {
	st := State{Discovery: Path(sys, sc)}
	d, err := ReadAt(sys, st.Discovery)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		if cause := errors.Unwrap(err); cause != nil {
			err = cause // the message names the file already
		}
		st.Stale = "it cannot be read: " + err.Error()
	case !ProcessAlive(d.PID):
		st.Stale = fmt.Sprintf("pid %d is not running", d.PID)
	case !d.Alive():
		st.Stale = fmt.Sprintf("pid %d runs, but nothing answers on port %d", d.PID, d.Port)
	default:
		st.Running, st.URL, st.PID = true, d.BaseURL(), d.PID
	}
	return st
}
