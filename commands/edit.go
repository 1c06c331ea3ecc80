package commands

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/settings"
)

// SettingsEditCmd opens a settings file in the user's editor, as
// `kubectl edit` does: on a temporary copy, validated on save, re-opened
// with the problems on top until it is valid or left unchanged, then
// written through the same guarded, atomic path as `settings set`.
type SettingsEditCmd struct {
	Project       bool `name:"project" xor:"layer" help:"Edit the project's file (.charter/settings.yaml)."`
	Local         bool `name:"local" xor:"layer" help:"Edit the project-local file (.charter/settings.local.yaml)."`
	ConfirmShared bool `name:"confirm-shared" help:"Write even through a link agent-switch shares between profiles."`
}

// editDoc is what `settings edit --json` prints.
type editDoc struct {
	Path    string `json:"path"`
	Written bool   `json:"written"`
}

// problemPrefix starts every line charter adds to the top of the copy to
// list the problems of the last round; those lines are removed again
// before the next validation, the user's own comments are not.
const problemPrefix = "# charter: "

func (c *SettingsEditCmd) Run(a *App) error {
	st, err := c.target(a)
	if err != nil {
		return err
	}
	path := st.Path()
	// Ask about a shared link before the editor opens, not after the work.
	confirmed := c.ConfirmShared
	err = a.guarded(c.ConfirmShared, func(confirm bool) error {
		if !confirm {
			link, err := a.Sys.SharedLink(path)
			if err != nil {
				return err
			}
			if link != "" {
				return &core.SharedWriteError{Target: path, SharedPath: link}
			}
		}
		confirmed = confirm
		return nil
	})
	if err != nil {
		return err
	}
	// A project file must stay inside the project: refuse a link out of it
	// before its target is read into the editor.
	within := st.WriteOptions(false).Within
	if err := a.Sys.Confine(within, path); err != nil {
		return err
	}
	orig, err := readWithin(a.Sys, within, path)
	if err != nil {
		return err
	}

	s, err := a.newEditSession(path, orig)
	if err != nil {
		return err
	}
	s.st = st
	body, changed, err := s.loop(orig)
	if err != nil {
		return s.keep(err)
	}
	if !changed {
		s.discard()
		return a.emit(editDoc{Path: path}, func(w io.Writer) {
			fmt.Fprintln(w, "edit cancelled, nothing written")
		})
	}
	err = a.Sys.UpdateFileOpts(path, st.WriteOptions(confirmed), func(cur []byte) ([]byte, error) {
		if !bytes.Equal(cur, orig) {
			return nil, core.Errorf(core.CodeStaleETag, "%s changed on disk while you edited it, so nothing was written: run `charter settings edit` again and carry your changes over", path)
		}
		if body == nil {
			body = []byte{} // an emptied file is written, not skipped
		}
		return body, nil
	})
	if err != nil {
		return s.keep(err)
	}
	s.discard()
	a.noteUnknown()
	return a.emit(editDoc{Path: path, Written: true}, func(w io.Writer) {
		fmt.Fprintf(w, "wrote %s\n", path)
	})
}

// target is the store of the layer this edit writes: the scope's file, or
// with --project or --local the project's.
func (c *SettingsEditCmd) target(a *App) (*settings.Store, error) {
	return a.writeStore(LayerFlags{Project: c.Project, Local: c.Local}.layer())
}

// noteUnknown names keys that are no settings, as `settings list` does:
// after an edit they are most likely typos.
func (a *App) noteUnknown() {
	_, snap, err := a.readSettings()
	if err != nil {
		return
	}
	for _, k := range snap.Unknown {
		fmt.Fprintf(a.Stderr, "charter: note: %s is not a charter setting; it is kept as it is\n", k)
	}
}

// editSession is one edit: a private directory with the copy, and the
// editor that opens it.
type editSession struct {
	a      *App
	st     *settings.Store // the layer written: its policy refuses values
	orig   []byte          // the file as it was before the edit
	dir    string
	copy   string
	editor []string
}

func (a *App) newEditSession(target string, orig []byte) (*editSession, error) {
	editor, err := a.editorCommand()
	if err != nil {
		return nil, err
	}
	dir, err := afero.TempDir(a.Sys.Fs, a.tempBase(), "charter-edit-")
	if err != nil {
		return nil, fmt.Errorf("create a temporary directory for the edit: %w", err)
	}
	if err := a.Sys.Fs.Chmod(dir, core.DirMode); err != nil {
		a.Sys.Fs.RemoveAll(dir)
		return nil, fmt.Errorf("create a temporary directory for the edit: %w", err)
	}
	// The copy keeps the file's name, so that editors pick their YAML mode.
	return &editSession{a: a, orig: orig, dir: dir, copy: filepath.Join(dir, filepath.Base(target)), editor: editor}, nil
}

// loop runs the editor until the copy is valid or left unchanged, and
// returns the new file content and whether it differs from orig.
func (s *editSession) loop(orig []byte) ([]byte, bool, error) {
	shown := orig
	for {
		if err := afero.WriteFile(s.a.Sys.Fs, s.copy, shown, core.FileMode); err != nil {
			return nil, false, fmt.Errorf("write %s: %w", s.copy, err)
		}
		if err := s.run(); err != nil {
			return nil, false, err
		}
		edited, err := afero.ReadFile(s.a.Sys.Fs, s.copy)
		if err != nil {
			return nil, false, fmt.Errorf("read %s: %w", s.copy, err)
		}
		if bytes.Equal(edited, shown) {
			return nil, false, nil // saved as shown, or not saved at all
		}
		body := stripProblems(edited)
		header := s.problems(body)
		if header == nil {
			return body, !bytes.Equal(body, orig), nil
		}
		shown = append(header, body...)
	}
}

// problems validates body and returns the comment block that lists its
// problems, or nil when it is valid. Each problem names its line in the
// copy as the editor will show it, block included: the block's length
// does not depend on the line numbers inside it, so one more round of
// validation with a first block in place settles them.
func (s *editSession) problems(body []byte) []byte {
	name := filepath.Base(s.copy)
	err := settings.Validate(name, body)
	if err == nil && s.st != nil {
		err = s.st.CheckEdit(s.orig, body)
	}
	if err == nil {
		return nil
	}
	header := problemBlock(err)
	if again := settings.Validate(name, append(bytes.Clone(header), body...)); again != nil {
		if h := problemBlock(again); bytes.Count(h, []byte("\n")) == bytes.Count(header, []byte("\n")) {
			header = h
		}
	}
	return header
}

func problemBlock(err error) []byte {
	var b bytes.Buffer
	b.WriteString(problemPrefix + "nothing was written yet: fix the problems below and save,\n")
	b.WriteString(problemPrefix + "or quit without saving to cancel. Lines starting with \"" + strings.TrimSpace(problemPrefix) + "\" are removed.\n")
	for _, line := range strings.Split(err.Error(), "\n") {
		b.WriteString(problemPrefix + strings.TrimSpace(line) + "\n")
	}
	return b.Bytes()
}

// stripProblems removes the block of problem lines charter put on top.
func stripProblems(data []byte) []byte {
	for {
		line, rest, found := bytes.Cut(data, []byte("\n"))
		if !bytes.HasPrefix(line, []byte(strings.TrimSpace(problemPrefix))) {
			return data
		}
		if !found {
			return nil
		}
		data = rest
	}
}

// run opens the copy in the editor, on the terminal charter runs on.
func (s *editSession) run() error {
	cmd := exec.Command(s.editor[0], append(s.editor[1:], s.copy)...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = s.a.Stdin, s.a.Stdout, s.a.Stderr
	if s.a.JSON {
		cmd.Stdout = s.a.Stderr // stdout holds the one JSON document
	}
	cmd.Env = s.a.environ()
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return fmt.Errorf("the editor %s exited with status %d, so nothing was written", s.editor[0], ee.ExitCode())
		}
		return fmt.Errorf("run the editor %s: %w (set VISUAL or EDITOR to an editor that is installed)", s.editor[0], err)
	}
	return nil
}

// keep ends a failed edit: a copy the user changed stays where it is, so
// that no work is lost, and the error says where.
func (s *editSession) keep(err error) error {
	data, rerr := afero.ReadFile(s.a.Sys.Fs, s.copy)
	if rerr != nil || bytes.Equal(stripProblems(data), s.orig) {
		s.discard()
		return err
	}
	return &keptError{err: err, copy: s.copy}
}

func (s *editSession) discard() { s.a.Sys.Fs.RemoveAll(s.dir) }

// keptError is a failed edit whose copy was kept.
type keptError struct {
	err  error
	copy string
}

func (e *keptError) Error() string {
	return fmt.Sprintf("%s; your edit is kept in %s", e.err, e.copy)
}

func (e *keptError) Unwrap() error { return e.err }

// Extras are the cause's (a shared link's choices) and the copy's path.
func (e *keptError) Extras() map[string]any {
	x := map[string]any{"copy": e.copy}
	for k, v := range core.ErrorExtras(e.err) {
		x[k] = v
	}
	return x
}

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
			return nil, &core.UsageError{Msg: fmt.Sprintf("%s=%s: %v", name, v, err)}
		}
		if len(words) > 0 {
			return a.lookEditor(words)
		}
	}
	if a.Sys.Paths.Windows {
		return a.lookEditor([]string{"notepad"})
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
	exts := []string{""}
	if a.Sys.Paths.Windows && filepath.Ext(name) == "" {
		exts = a.Sys.Vars.Array("PATHEXT", []string{".COM", ".EXE", ".BAT", ".CMD"}, ";")
	}
	for _, dir := range a.Sys.Vars.Array("PATH", nil, a.Sys.Paths.ListSep()) {
		if dir == "" {
			continue
		}
		for _, ext := range exts {
			p := filepath.Join(dir, name+strings.ToLower(ext))
			if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && (a.Sys.Paths.Windows || fi.Mode().Perm()&0o111 != 0) {
				words[0] = p
				return words, nil
			}
		}
	}
	return nil, &core.UsageError{Msg: fmt.Sprintf("editor %q not found on PATH: set VISUAL or EDITOR to the editor you use", name)}
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

// readWithin reads path (nil when it does not exist) inside the project
// root within ("" for the user's own files).
func readWithin(sys *core.System, within, path string) ([]byte, error) {
	f, err := sys.OpenWithin(within, path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return data, nil
}
