package server

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/agentkit/charter/core"
)

// Probe tells `charter doctor` whether a server of the scope runs, and
// whether a discovery file is left over from one that does not.
func Probe(sys *core.System, sc core.Scope) core.ServerState {
	st := core.ServerState{Discovery: DiscoveryPath(sys, sc)}
	d, err := readDiscovery(sys, st.Discovery)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		if cause := errors.Unwrap(err); cause != nil {
			err = cause // the message names the file already
		}
		st.Stale = "it cannot be read: " + err.Error()
	case !processAlive(d.PID):
		st.Stale = fmt.Sprintf("pid %d is not running", d.PID)
	case !d.alive():
		st.Stale = fmt.Sprintf("pid %d runs, but nothing answers on port %d", d.PID, d.Port)
	default:
		st.Running, st.URL, st.PID = true, d.BaseURL(), d.PID
	}
	return st
}
