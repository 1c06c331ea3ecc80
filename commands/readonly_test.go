package commands

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/agentkit/charter/core/fsys"
)

// A dry run works on a System whose file system refuses every write: the
// promise to write nothing is kept by the type, not by each write path.
func TestDryRunsWorkReadOnly(t *testing.T) {
	for _, args := range []string{"apply --dry-run", "apply --check", "import --from claude --dry-run", "uninstall --dry-run"} {
		var out, errb bytes.Buffer
		a := testApp(t, &out, &errb)
		a.run(context.Background(), strings.Fields(args))
		if _, ok := a.Sys.Fs.(*fsys.ReadOnlyFs); !ok {
			t.Errorf("charter %s ran on a writable %T", args, a.Sys.Fs)
		}
	}
	a := testApp(t, new(bytes.Buffer), new(bytes.Buffer))
	a.run(context.Background(), []string{"ping"})
	if _, ok := a.Sys.Fs.(*fsys.ReadOnlyFs); ok {
		t.Error("ping's System refuses writes: the check above tells nothing")
	}
}
