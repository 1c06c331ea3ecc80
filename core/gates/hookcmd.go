package gates

import (
	"strings"

	"github.com/agentkit/charter/helpers/shell"
)

// HookCommandSuffix ends the command of charter's Claude Code Stop hook
// entry; an entry whose command ends with it is charter's, whatever binary
// path or global flags come before it. core/apply keeps the entry in the
// agents' files.
const HookCommandSuffix = "gate hook claude-stop"

// IsCharterHook reports whether a hook command is charter's Stop hook.
func IsCharterHook(command string) bool {
	return strings.HasSuffix(strings.TrimSpace(command), HookCommandSuffix)
}

// HookCommand is the command of charter's Stop hook entry (SPEC §10): the
// charter binary's absolute path, then --config-root ROOT when the scope
// is a host root (root != ""), then HookCommandSuffix. Claude Code runs a
// hook command through a shell — sh on macOS and Linux, Git Bash on
// Windows (PowerShell when Git Bash is missing) — so words that need it
// are single-quoted. On Windows pass paths with forward slashes
// (C:/Users/…): a path without spaces then needs no quotes in any of
// those shells.
func HookCommand(binary, root string) string {
	return hookCommand(binary, root, HookCommandSuffix)
}

func hookCommand(binary, root, suffix string) string {
	words := []string{shell.Quote(binary)}
	if root != "" {
		words = append(words, "--config-root", shell.Quote(root))
	}
	return strings.Join(append(words, suffix), " ")
}
