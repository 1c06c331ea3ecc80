package commands

import (
	"fmt"
	"io"
	"os"

	"github.com/agentkit/charter/helpers/jsondoc"
	"golang.org/x/term"
)

// writeJSON prints one document. HTML escaping is off: paths and commands
// should read as they are.
func (a *App) writeJSON(v any) error {
	data, err := jsondoc.Encode(v, "", "  ")
	if err == nil {
		_, err = a.Stdout.Write(data)
	}
	if err != nil {
		return fmt.Errorf("write output: %w", err)
	}
	return nil
}

// emit prints doc as JSON with --json, else whatever human prints.
func (a *App) emit(doc any, human func(w io.Writer)) error {
	if a.JSON {
		return a.writeJSON(doc)
	}
	human(a.Stdout)
	return nil
}

func isTerminal(v any) bool {
	f, ok := v.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
