package commands

import (
	"bufio"
	"errors"
	"fmt"
	"strings"

	"github.com/agentkit/charter/core"
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
		return core.Errorf(core.CodeCancelled, "cancelled: nothing was written (%s is shared by agent-switch)", se.SharedPath)
	}
	return write(true)
}

// promptShared offers exactly the two choices; anything but the first cancels.
func (a *App) promptShared(se *core.SharedWriteError) (bool, error) {
	fmt.Fprintf(a.Stderr, "%s lies behind %s,\na link agent-switch shares between profiles. Writing affects all profiles.\n", se.Target, se.SharedPath)
	for i, c := range core.SharedWriteChoices() {
		fmt.Fprintf(a.Stderr, "  %d) %s\n", i+1, c)
	}
	fmt.Fprintf(a.Stderr, "For profile-local writes run `%s` first.\nChoose 1 or 2 [2]: ", core.CompanionShareOffCommand)
	line, err := bufio.NewReader(a.Stdin).ReadString('\n')
	if err != nil && line == "" {
		fmt.Fprintln(a.Stderr)
		return false, nil // end of input is a cancel
	}
	answer := strings.TrimSpace(line)
	return answer == "1" || strings.EqualFold(answer, core.ChoiceWriteShared), nil
}
