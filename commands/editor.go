package commands

import (
	"errors"
	"os"
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/errcode"
)

// editorCommand is $VISUAL, else $EDITOR, else the system's plain editor,
// split into words as a shell would (the value may carry arguments).
func (a *App) editorCommand() ([]string, error) {
	for _, name := range []string{"VISUAL", "EDITOR"} {
		v := strings.TrimSpace(a.Sys.Getenv(name))
		if v == "" {
			continue
		}
		words, err := shellWords(v)
		if err != nil {
			return nil, errcode.Errorf(core.CodeUsage, "%s=%s: %v", name, v, err)
		}
		if len(words) > 0 {
			return a.lookEditor(words)
		}
	}
	if a.Sys.Paths.Windows {
		return a.lookEditor([]string{"notepad"})
	}
	// vi with no terminal (a script, an agent, CI) would hang or mangle
	// the file: without a chosen editor, only a person at one gets it.
	if !a.terminal(a.Stdin) || !a.terminal(a.Stdout) {
		return nil, errcode.Errorf(core.CodeUsage, "no editor is set and this is not a terminal, so charter will not start vi: set VISUAL or EDITOR (EDITOR=nano charter settings edit), or change one value with `charter settings set KEY VALUE`")
	}
	return a.lookEditor([]string{"vi"})
}

// lookEditor finds a bare program name on the PATH charter was given,
// which is the one the editor runs with.
func (a *App) lookEditor(words []string) ([]string, error) {
	name := words[0]
	if strings.ContainsAny(name, `/\`) {
		return words, nil
	}
	if p := a.Sys.LookPath(name); p != "" {
		words[0] = p
		return words, nil
	}
	return nil, errcode.Errorf(core.CodeUsage, "editor %q not found on PATH: set VISUAL or EDITOR to the editor you use", name)
}

// environ is the environment charter was given, for the editor.
func (a *App) environ() []string {
	names := a.Sys.VarNames()
	out := make([]string, 0, len(names))
	for _, n := range names {
		out = append(out, n+"="+a.Sys.Getenv(n))
	}
	return out
}

// tempBase is where the edit's private directory goes.
func (a *App) tempBase() string {
	vars := []string{"TMPDIR"}
	if a.Sys.Paths.Windows {
		vars = []string{"TMP", "TEMP"}
	}
	for _, v := range vars {
		if d := strings.TrimSpace(a.Sys.Getenv(v)); d != "" {
			return d
		}
	}
	return os.TempDir()
}

// shellWords splits s into words as a POSIX shell does, without
// expansions: blanks separate words, single quotes keep everything, double
// quotes keep everything but \" \\ \$ \`, a backslash outside quotes keeps
// the next character.
func shellWords(s string) ([]string, error) {
	var (
		words  []string
		cur    strings.Builder
		inWord bool
	)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\\':
			inWord = true
			if i+1 < len(s) {
				i++
				cur.WriteByte(s[i])
			}
		case c == '\'':
			inWord = true
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, errors.New("unterminated single quote")
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
		case c == '"':
			inWord = true
			for i++; ; i++ {
				if i >= len(s) {
					return nil, errors.New("unterminated double quote")
				}
				if s[i] == '"' {
					break
				}
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`", s[i+1]) >= 0 {
					i++
				}
				cur.WriteByte(s[i])
			}
		default:
			inWord = true
			cur.WriteByte(c)
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}
