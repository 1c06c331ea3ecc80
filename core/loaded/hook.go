package loaded

import (
	"strings"

	"github.com/agentkit/charter/helpers/shell"
)

// HookEvent is the Claude Code hook event apply installs charter's entry
// for, beside the Stop entry in the same settings.json.
const HookEvent = "InstructionsLoaded"

// HookSuffix ends the command of charter's InstructionsLoaded entry; an
// entry whose command ends with it is charter's.
const HookSuffix = "gate hook claude-loaded"

// HookTimeout is the entry's timeout in seconds: the hook reads one small
// event and writes one small file.
const HookTimeout = 10

// HookCommand is the entry's command, as gates.HookCommand makes the Stop
// entry's: the program, --config-root ROOT for a host root, then
// HookSuffix.
func HookCommand(binary, root string) string {
	words := []string{shell.Quote(binary)}
	if root != "" {
		words = append(words, "--config-root", shell.Quote(root))
	}
	return strings.Join(append(words, HookSuffix), " ")
}
