package commands

import (
	"context"
	"io"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// inProcessMCP runs `charter mcp` in this process over pipes and returns a
// client connected to it, and what stops both.
func inProcessMCP(t *testing.T, app func(io.Reader, io.Writer) *App) (*mcp.ClientSession, func()) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan ExitCode, 1)
	go func() {
		done <- app(inR, outW).run(context.Background(), []string{"mcp"})
		outW.Close()
	}()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
		Connect(context.Background(), &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return cs, func() {
		cs.Close()
		inW.Close()
		if code := <-done; code != ExitOK {
			t.Errorf("mcp: exit %d", code)
		}
	}
}
