package settings

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentkit/charter/core"
)

// FileError is one or more settings files charter cannot use as they are:
// a syntax error, a key defined twice, a value that is not valid, a file too
// large. It lists every problem found, each with its file and line. A file
// with a problem is never rewritten, unless the write removes every problem
// it has (setting or unsetting the bad key).
type FileError struct {
	Path     string // the file of the first problem
	Problems []FileProblem
}

// FileProblem is one thing wrong in a settings file.
type FileProblem struct {
	File    string `json:"file"`
	Line    int    `json:"line"` // 0 when the problem has no line
	Key     string `json:"key"`  // the dotted key concerned, "" when none
	Message string `json:"message"`
	// repairable: a bad value of Key, which a write of Key replaces.
	repairable bool
	// syntax: the file is not YAML; `settings edit` shows it and checks it.
	syntax bool
}

// Code is the same for every problem: the file, not the request, is wrong.
func (e *FileError) Code() string { return core.CodeMalformedSettings }

// Extras lists every problem for JSON error bodies.
func (e *FileError) Extras() map[string]any { return map[string]any{"problems": e.Problems} }

// Line is the line of the first problem, 0 when it has none.
func (e *FileError) Line() int {
	if len(e.Problems) == 0 {
		return 0
	}
	return e.Problems[0].Line
}

func (e *FileError) Error() string {
	if len(e.Problems) == 1 {
		return fmt.Sprintf("%s (%s)", e.Problems[0], e.hint())
	}
	lines := make([]string, 0, len(e.Problems)+1)
	lines = append(lines, fmt.Sprintf("%d problems in settings (%s):", len(e.Problems), e.hint()))
	for _, p := range e.Problems {
		lines = append(lines, "  "+p.String())
	}
	return strings.Join(lines, "\n")
}

// hint says how to get out: a single bad value can be set or unset from
// the command line; anything else needs the file edited (a write of one
// key cannot leave the others valid).
func (e *FileError) hint() string {
	if len(e.Problems) == 1 && e.Problems[0].repairable {
		k := e.Problems[0].Key
		return fmt.Sprintf("fix it with `charter settings set %s VALUE` or `charter settings unset %s`, or edit the file", k, k)
	}
	if len(e.Problems) == 1 && e.Problems[0].syntax {
		return fmt.Sprintf("fix it with `charter settings edit%s`, which checks the file before it saves it, or by hand; charter will not overwrite it until then", editFlag(e.Problems[0].File))
	}
	if len(e.Problems) == 1 {
		return "fix the file by hand; charter will not overwrite it until then"
	}
	return "fix them by hand; charter will not overwrite the file until then"
}

func (p FileProblem) String() string {
	if p.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Message)
	}
	return fmt.Sprintf("%s: %s", p.File, p.Message)
}

// fileError returns the problems as one error, in the order the files were
// read and by line within a file; nil when there are none.
func fileError(problems []FileProblem, order []string) error {
	if len(problems) == 0 {
		return nil
	}
	ps := slices.Clone(problems)
	slices.SortStableFunc(ps, func(a, b FileProblem) int {
		return cmp.Or(cmp.Compare(slices.Index(order, a.File), slices.Index(order, b.File)), cmp.Compare(a.Line, b.Line))
	})
	return &FileError{Path: ps[0].File, Problems: ps}
}

// editFlag is the `settings edit` flag that opens file: a project's files
// are --project and --local.
func editFlag(file string) string {
	dir, name := filepath.Split(file)
	if filepath.Base(dir) != ".charter" {
		return ""
	}
	switch name {
	case "settings.yaml":
		return " --project"
	case "settings.local.yaml":
		return " --local"
	}
	return ""
}
