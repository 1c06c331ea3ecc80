package commands

import (
	"context"

	"github.com/agentkit/charter/core/gates"
)

// GateCodexStopCmd is Codex's Stop hook: the same decisions and session
// state as claude-stop, answered in Codex's protocol (a block is exit 0
// with {"decision":"block","reason":…} on stdout).
type GateCodexStopCmd struct{}

func (c *GateCodexStopCmd) Run(ctx context.Context, a *App) error {
	return runStopHook(ctx, a, gates.CodexStop)
}
