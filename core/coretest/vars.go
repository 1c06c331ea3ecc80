package coretest

import (
	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/agents"
)

// PolicyVar is settings.PolicyVar, which this package cannot import: the
// settings package's own tests use it (a test checks the two agree).
const PolicyVar = "AGENTKIT_POLICY_FILE"

// Cleared lists the variables charter reads that would point it at the
// developer's own directories or change its output. A Machine leaves them
// unset; the testscript Setup sets them empty. A test fails when charter
// reads a variable that is neither here nor pinned.
func Cleared() []string {
	vars := []string{
		core.ConfigHomeVar,
		core.CompanionHomeVar,
		core.ProjectDirVar,
		agents.XDGConfigVar, // moves Goose's folder
		"NO_COLOR",
		"CLICOLOR_FORCE",
		"TERM",
		"VISUAL",
		"EDITOR",
		"CHARTER_TEST_TERMINAL", // the tests' stand-in for a terminal
		// passed to git for shared sources: the developer's ssh agent or
		// proxy must not reach the tests' fetches
		"SSH_AUTH_SOCK", "SSH_AGENT_PID", "GIT_SSH_COMMAND", "HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY",
		"https_proxy", "http_proxy", "no_proxy",
	}
	for _, a := range agents.Default() {
		if a.DirVar != "" {
			vars = append(vars, a.DirVar)
		}
	}
	return vars
}
