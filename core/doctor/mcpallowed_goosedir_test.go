package doctor_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/session"
)

// Doctor reads Goose's config.yaml where Goose reads it: below
// $GOOSE_PATH_ROOT/config, or $XDG_CONFIG_HOME/goose.
func TestMCPAllowedGooseDir(t *testing.T) {
	for name, sub := range map[string]string{"GOOSE_PATH_ROOT": "config", "XDG_CONFIG_HOME": "goose"} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			m := coretest.New(t, coretest.Env(name+"="+root))
			file := filepath.Join(root, sub, "config.yaml")
			coretest.WriteFile(t, file, "extensions:\n  mine:\n    type: stdio\n    cmd: my-mcp\n")
			coretest.WriteFile(t, filepath.Join(m.Home, ".config", "goose", "config.yaml"), "extensions:\n  stale:\n    type: stdio\n    cmd: old\n")
			coretest.WriteFile(t, m.PolicyFile, "mcp:\n  allowed: [github]\n")
			rep := runAll(env{Session: session.New(m.Sys, session.Options{NoProject: true})})
			var got []string
			for _, c := range rep.Checks {
				if strings.HasPrefix(c.Name, "mcp-allowed:goose") {
					got = append(got, c.Name+" "+c.Message)
				}
			}
			if len(got) != 1 || !strings.HasPrefix(got[0], "mcp-allowed:goose:user:mine "+file) {
				t.Errorf("doctor's goose lines %q, want one for mine in %s (not the stale ~/.config/goose)", got, file)
			}
		})
	}
}
