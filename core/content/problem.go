package content

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/lazy"
)

// Problem is one thing wrong with a source: a file and, where it has one,
// a line.
type Problem struct {
	Path    string `json:"file"`
	Line    int    `json:"line"` // 0 when the problem has no line (a bad name, a link)
	Message string `json:"message"`
}

func (p Problem) String() string {
	if p.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", p.Path, p.Line, p.Message)
	}
	return fmt.Sprintf("%s: %s", p.Path, p.Message)
}

// MalformedError lists every problem found in the sources, sorted by file
// and line. Nothing is projected or listed while there is one.
type MalformedError struct{ Problems []Problem }

// Code is the same for every problem: a source, not the request, is wrong.
func (e *MalformedError) Code() string { return core.CodeMalformedContent }

// Extras lists every problem for JSON error bodies.
func (e *MalformedError) Extras() map[string]any { return map[string]any{"problems": e.Problems} }

func (e *MalformedError) Error() string {
	const hint = "fix the source; charter projects and lists nothing until then"
	if len(e.Problems) == 1 {
		return fmt.Sprintf("%s (%s)", e.Problems[0], hint)
	}
	lines := []string{fmt.Sprintf("%d problems in rules, skills, commands or subagents (%s):", len(e.Problems), hint)}
	for _, p := range e.Problems {
		lines = append(lines, "  "+p.String())
	}
	return strings.Join(lines, "\n")
}

// malformed returns the problems as one error, nil when there are none.
func malformed(ps []Problem) error {
	if len(ps) == 0 {
		return nil
	}
	ps = slices.Clone(ps)
	slices.SortStableFunc(ps, func(a, b Problem) int {
		return cmp.Or(strings.Compare(a.Path, b.Path), cmp.Compare(a.Line, b.Line))
	})
	return &MalformedError{Problems: ps}
}

// MaxName is the longest item name.
const MaxName = 64

var nameRE = lazy.Regexp{Expr: `^[a-z0-9]+(-[a-z0-9]+)*$`}

// CheckName says what is wrong with an item name, "" when it is valid.
func CheckName(name string) string {
	switch {
	case len(name) > MaxName:
		return fmt.Sprintf("the name %q is longer than %d characters", name, MaxName)
	case !nameRE.Get().MatchString(name):
		return fmt.Sprintf("the name %q is not valid: use lowercase letters, digits and single hyphens between them (e.g. go-style)", name)
	case name == "charter" || strings.HasPrefix(name, "charter-"):
		return fmt.Sprintf("the name %q is reserved for charter's own items: choose another", name)
	}
	return ""
}
