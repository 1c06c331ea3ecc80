package commands

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core/coretest"
)

// A read the first signal cancelled says it stopped and why, in words,
// with nothing on stdout: never "context canceled", never a partial list.
func TestReadStoppedBySignal(t *testing.T) {
	for _, args := range [][]string{{"rules", "list"}, {"permissions", "list"}, {"mcp-servers", "list"}, {"sources", "list"}} {
		var out, errb bytes.Buffer
		app := newApp(Build{Version: "t"}, strings.NewReader(""), &out, &errb, coretest.New(t).Environ(), afero.NewOsFs(), args)
		ctx, cancel := context.WithCancelCause(context.Background())
		cancel(errors.New("SIGINT received"))
		code := app.run(ctx, args)
		if code != ExitRuntime || out.Len() != 0 || !strings.Contains(errb.String(), "stopped (SIGINT received) before the command finished") {
			t.Errorf("%v: exit %d\nstdout: %s\nstderr: %s", args, code, out.String(), errb.String())
		}
	}
}
