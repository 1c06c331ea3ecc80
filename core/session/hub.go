package session

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/agentkit/charter/core"
)

// Hub reaches the running server of a scope. Its discovery and token
// files and its API are the HTTP skin's own business; session declares
// here what it asks of them, so `ping --server` and doctor need no skin
// below them. The command line hands one in (Options.Hub).
type Hub interface {
	// Ping is the ping document of the scope's running server.
	Ping(ctx context.Context, sys *core.System, sc core.Scope) (ServerPing, error)
	// Probe says whether a server of the scope runs, or left a stale
	// discovery file behind.
	Probe(sys *core.System, sc core.Scope) ServerState
}

// ServerPing is a running server's ping document as it answered: Raw is
// printed as is (an older server may lack fields this build knows), Doc
// is what this build reads of it.
type ServerPing struct {
	Raw json.RawMessage
	Doc core.PingDoc
	URL string // the server's loopback address
	PID int
}

// ServerState is what a probe found out about a scope's server, for
// doctor.
type ServerState struct {
	Discovery string // the discovery file's path
	Running   bool
	URL       string
	PID       int
	// Stale says why a discovery file that exists does not count; "" when
	// there is none or its server runs.
	Stale string
}

// PingServer is the ping document of this scope's running server
// (`charter ping --server`).
func (s *Session) PingServer(ctx context.Context) (ServerPing, error) {
	sc, err := s.Scope()
	if err != nil {
		return ServerPing{}, err
	}
	if s.opts.Hub == nil {
		return ServerPing{}, errors.New("this charter cannot reach a running server from here: ask with `charter ping --server`")
	}
	return s.opts.Hub.Ping(ctx, s.Sys, sc)
}
