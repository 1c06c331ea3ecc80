package commands

import (
	"bufio"
	"errors"
	"fmt"
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/errcode"
	"github.com/agentkit/charter/core/inert"
)

// guarded runs write, and when it is blocked by a shared link asks a person
// at a terminal to choose; without one the block stands (exit 4) unless
// --confirm-shared was given.
func (a *App) guarded(confirmed bool, write func(confirm bool) error) error {
	err := write(confirmed)
	var se *core.SharedWriteError
	if confirmed || !errors.As(err, &se) || !a.Interactive() {
		return err
	}
	ok, perr := a.promptShared(se)
	if perr != nil {
		return perr
	}
	if !ok {
		return errcode.Errorf(core.CodeCancelled, "cancelled: nothing was written (%s is shared by agent-switch)", se.SharedPath)
	}
	return write(true)
}

// promptAttempts is how many answers the prompt reads before it gives up
// and cancels: a typo gets another chance, a stuck input does not loop.
const promptAttempts = 3

// promptShared offers exactly the two choices. An answer that is neither
// asks again, up to promptAttempts times; then, and at end of input, it
// cancels. Enter alone picks the default, Cancel.
func (a *App) promptShared(se *core.SharedWriteError) (bool, error) {
	if len(se.Readers) > 0 {
		fmt.Fprintf(a.Stderr, "%s is shared: agent-switch links %s to %s.\nWriting affects all of them.\n", inert.Line(se.Target), inert.Line(se.ReadersText()), inert.Line(se.SharedPath))
	} else {
		fmt.Fprintf(a.Stderr, "%s\nagent-switch shares between profiles. Writing affects all profiles.\n", inert.Line(se.Behind()))
	}
	for i, c := range se.Choices() {
		fmt.Fprintf(a.Stderr, "  %d) %s\n", i+1, c)
	}
	fmt.Fprintf(a.Stderr, "Note: %s.\n", se.Hint())
	in := bufio.NewReader(a.Stdin)
	for try := 1; ; try++ {
		fmt.Fprint(a.Stderr, "Choose 1 or 2 [2]: ")
		line, err := in.ReadString('\n')
		if err != nil && line == "" {
			fmt.Fprintln(a.Stderr)
			return false, nil // end of input is a cancel
		}
		switch answer := strings.TrimSpace(line); {
		case answer == "1" || strings.EqualFold(answer, core.ChoiceWriteShared):
			return true, nil
		case answer == "" || answer == "2" || strings.EqualFold(answer, core.ChoiceCancel):
			return false, nil
		case try == promptAttempts:
			fmt.Fprintf(a.Stderr, "%q is not one of the choices; after %d tries that counts as Cancel.\n", answer, promptAttempts)
			return false, nil
		default:
			fmt.Fprintf(a.Stderr, "%q is not one of the choices: type 1 to write, 2 (or Enter) to cancel.\n", answer)
		}
	}
}
