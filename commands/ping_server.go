package commands

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/errcode"
	"github.com/agentkit/charter/core/inert"
	"github.com/agentkit/charter/server"
)

// askServer prints the ping document of the running server of this scope.
func (c *PingCmd) askServer(ctx context.Context, a *App, sc core.Scope) error {
	var raw json.RawMessage
	cl, err := server.Connect(a.Sys, sc)
	if err == nil {
		raw, err = cl.Ping(ctx)
	}
	if err != nil {
		return err
	}
	var doc core.PingDoc
	if err := json.Unmarshal(raw, &doc); err != nil {
		return fmt.Errorf("read the answer of %s: %w", cl.Discovery.BaseURL(), err)
	}
	if err := require(doc, c.Require, "the server at "+cl.Discovery.BaseURL()); err != nil {
		return err
	}
	return a.emit(raw, func(w io.Writer) {
		printPing(w, doc)
		fmt.Fprintf(w, "server:       %s (pid %d)\n", inert.Line(cl.Discovery.BaseURL()), cl.Discovery.PID)
	})
}

// require fails with exit 6 unless doc advertises every capability in caps:
// a missing block, a missing key and false all mean "not supported".
func require(doc core.PingDoc, caps []string, who string) error {
	for _, c := range caps {
		if !doc.Capabilities[c] {
			return errcode.Errorf(core.CodeNotSupported, "not supported: %s (charter %s) lacks the capability %q", who, doc.Version, c)
		}
	}
	return nil
}
