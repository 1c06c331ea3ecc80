package commands

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
)

// fail is the one way out: an error's code picks the status, and an
// *exitError, however wrapped, says the status and what is left to print.
func TestFailIsTheOneExit(t *testing.T) {
	for _, c := range []struct {
		name         string
		err          error
		status       ExitCode
		stdout       bool // an error document on stdout
		stderrSuffix string
	}{
		{"by code", core.Errorf(core.CodeCheckFailed, "two gates failed"), ExitCheckFailed, true, "two gates failed\n"},
		{"quiet", exitQuietly(7), 7, false, ""},
		{"quiet, wrapped", fmt.Errorf("hook: %w", exitQuietly(2)), 2, false, ""},
		{"reported", reported(core.Errorf(core.CodeSharedWrite, "one target blocked")), ExitSharedWrite, false, "one target blocked\n"},
		{"reported, wrapped", fmt.Errorf("apply: %w", reported(core.Errorf(core.CodeOutdated, "stale"))), ExitCheckFailed, false, "apply: stale\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			app := newApp(Build{Version: "t"}, strings.NewReader(""), &out, &errb, nil, afero.NewMemMapFs(), []string{"--json"})
			if got := app.fail(c.err); got != c.status {
				t.Errorf("status %d, want %d", got, c.status)
			}
			if got := out.Len() > 0; got != c.stdout {
				t.Errorf("stdout %q, want a document: %v", out.String(), c.stdout)
			}
			if !strings.HasSuffix(errb.String(), c.stderrSuffix) || (c.stderrSuffix == "") != (errb.Len() == 0) {
				t.Errorf("stderr %q, want it to end %q", errb.String(), c.stderrSuffix)
			}
		})
	}
}
