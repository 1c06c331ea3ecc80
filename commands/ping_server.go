package commands

import (
	"context"
	"fmt"
	"io"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/errcode"
	"github.com/agentkit/charter/core/inert"
)

// askServer prints the ping document of the running server of this scope.
func (c *PingCmd) askServer(ctx context.Context, a *App) error {
	sp, err := a.session().PingServer(ctx)
	if err != nil {
		return err
	}
	if err := require(sp.Doc, c.Require, "the server at "+sp.URL); err != nil {
		return err
	}
	return a.emit(sp.Raw, func(w io.Writer) {
		printPing(w, sp.Doc)
		fmt.Fprintf(w, "server:       %s (pid %d)\n", inert.Line(sp.URL), sp.PID)
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
