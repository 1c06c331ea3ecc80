package commands

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/agentkit/charter/core"
)

// AgentSwitchVar names the real agent-switch binary (node_modules/.bin/
// agent-switch of an npm install of its release 2.0.0).
const AgentSwitchVar = "CHARTER_AGENT_SWITCH"

// agentSwitch is the real agent-switch and the node it runs on. This is the
// one test that skips under CI=true too: agent-switch is not on the npm
// registry, GitHub is out of CI's reach, and no build of a fetched
// repository may be committed, so CI has no way to get it. Run it by hand
// with a build of the release (npm install && npm pack in its source, then
// npm install the tarball into a scratch folder).
func agentSwitch(t *testing.T) (bin, node string) {
	t.Helper()
	bin = os.Getenv(AgentSwitchVar)
	node, err := exec.LookPath("node")
	missing := ""
	switch {
	case runtime.GOOS == "windows":
		t.Skip("the stand-in agent CLIs are shell scripts")
	case err != nil:
		missing = "node is not on PATH"
	case bin == "":
		missing = AgentSwitchVar + " is not set"
	default:
		if _, err := os.Stat(bin); err != nil {
			missing = "no agent-switch at " + bin
		}
	}
	if missing != "" {
		t.Skipf("%s (build agent-switch 2.0.0 with npm, then %s=DIR/node_modules/.bin/agent-switch)", missing, AgentSwitchVar)
	}
	return bin, node
}

// TestCompanionReal runs testdata/realswitch: the real agent-switch makes
// the profiles, the share links, the renames, and charter lives beside them.
// The agent CLIs it launches (`add` starts one for the first login) are
// stand-ins that exit at once: no one logs in.
func TestCompanionReal(t *testing.T) {
	bin, node := agentSwitch(t)
	p := scriptParams()
	p.Dir = filepath.Join("..", "testdata", "realswitch")
	setup := p.Setup
	p.Setup = func(e *testscript.Env) error {
		if err := setup(e); err != nil {
			return err
		}
		dir := filepath.Join(e.WorkDir, "bin")
		for name, target := range map[string]string{"agent-switch": bin, "node": node} {
			if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
				return err
			}
		}
		for _, agent := range []string{"claude", "codex"} {
			if err := os.WriteFile(filepath.Join(dir, agent), []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
				return err
			}
		}
		// Unset, not empty (agent-switch would take "" as its root): both
		// tools find <home>/.agent-switch by themselves.
		e.Vars = slices.DeleteFunc(e.Vars, func(kv string) bool { return strings.HasPrefix(kv, core.CompanionHomeVar+"=") })
		return nil
	}
	testscript.Run(t, p)
}
