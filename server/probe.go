package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/session"
)

// Hub is how core/session reaches a scope's running server through this
// skin's discovery files: `charter ping --server` and doctor ask it.
type Hub struct{}

var _ session.Hub = Hub{}

// Ping asks the scope's running server for its ping document.
func (Hub) Ping(ctx context.Context, sys *core.System, sc core.Scope) (session.ServerPing, error) {
	cl, err := Connect(sys, sc)
	if err != nil {
		return session.ServerPing{}, err
	}
	raw, err := cl.Ping(ctx)
	if err != nil {
		return session.ServerPing{}, err
	}
	out := session.ServerPing{Raw: raw, URL: cl.Discovery.BaseURL(), PID: cl.Discovery.PID}
	if err := json.Unmarshal(raw, &out.Doc); err != nil {
		return session.ServerPing{}, fmt.Errorf("read the answer of %s: %w", out.URL, err)
	}
	return out, nil
}

// Probe tells doctor whether a server of the scope runs, and whether a
// discovery file is left over from one that does not.
func (Hub) Probe(sys *core.System, sc core.Scope) session.ServerState {
	st := session.ServerState{Discovery: DiscoveryPath(sys, sc)}
	d, err := readDiscoveryAt(sys, st.Discovery)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		if cause := errors.Unwrap(err); cause != nil {
			err = cause // the message names the file already
		}
		st.Stale = "it cannot be read: " + err.Error()
	case !processAlive(d.PID):
		st.Stale = fmt.Sprintf("pid %d is not running", d.PID)
	case !d.Alive():
		st.Stale = fmt.Sprintf("pid %d runs, but nothing answers on port %d", d.PID, d.Port)
	default:
		st.Running, st.URL, st.PID = true, d.BaseURL(), d.PID
	}
	return st
}
