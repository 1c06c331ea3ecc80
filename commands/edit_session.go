package commands

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/errcode"
	"github.com/agentkit/charter/core/fsys"
	"github.com/agentkit/charter/core/session"
)

// editSession is one edit: a private directory with the copy, and the
// editor that opens it.
type editSession struct {
	a      *App
	t      *session.Target // the layer written: its policy refuses values
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
	if err := a.Sys.Fs.Chmod(dir, fsys.DirMode); err != nil {
		a.Sys.Fs.RemoveAll(dir)
		return nil, fmt.Errorf("create a temporary directory for the edit: %w", err)
	}
	// The copy keeps the file's name, so that editors pick their YAML mode.
	return &editSession{a: a, orig: orig, dir: dir, copy: filepath.Join(dir, filepath.Base(target)), editor: editor}, nil
}

// maxRefusedSaves bounds the rounds of an edit whose every save is
// refused: an editor that is no person (a script in EDITOR) would
// otherwise save the same refused value forever.
const maxRefusedSaves = 3

// editorStopWait is how long the editor has to end after SIGTERM, when
// charter is stopped, before it is killed (within StopGrace).
const editorStopWait = 2 * time.Second

// loop runs the editor until the copy is valid or left unchanged, and
// returns the new file content and whether it differs from orig. After
// maxRefusedSaves refused saves in a row it gives up with the problems of
// the last one.
func (s *editSession) loop(ctx context.Context, orig []byte) ([]byte, bool, error) {
	shown := orig
	for refused := 0; ; refused++ {
		if err := afero.WriteFile(s.a.Sys.Fs, s.copy, shown, fsys.FileMode); err != nil {
			return nil, false, fmt.Errorf("write %s: %w", s.copy, err)
		}
		if err := s.run(ctx); err != nil {
			return nil, false, err
		}
		// The editor may leave anything at the copy's path: a link to a
		// device, a named pipe, a file of any size.
		edited, err := s.a.Sys.ReadFile(s.copy, fsys.KindSettings)
		if err != nil {
			return nil, false, fsys.ReadError(s.copy, err)
		}
		if bytes.Equal(edited, shown) {
			return nil, false, nil // saved as shown, or not saved at all
		}
		body := stripProblems(edited)
		header, problem := s.problems(body)
		if header == nil {
			return body, !bytes.Equal(body, orig), nil
		}
		shown = append(header, body...)
		if refused+1 >= maxRefusedSaves {
			// The copy keeps the last attempt with its problems on top.
			afero.WriteFile(s.a.Sys.Fs, s.copy, shown, fsys.FileMode)
			return nil, false, &gaveUpError{err: problem}
		}
	}
}

// gaveUpError is an edit ended after maxRefusedSaves refused saves; it
// keeps the code of the last refusal.
type gaveUpError struct{ err error }

func (e *gaveUpError) Error() string {
	return fmt.Sprintf("the editor saved a refused file %d times in a row, so the edit was given up and nothing was written; the last save was refused because: %s",
		maxRefusedSaves, strings.ReplaceAll(strings.TrimSpace(e.err.Error()), "\n", "; "))
}

func (e *gaveUpError) Unwrap() error { return e.err }

// problems validates body and returns the comment block that lists its
// problems, or nil when it is valid. Each problem names its line in the
// copy as the editor will show it, block included: the block's length
// does not depend on the line numbers inside it, so one more round of
// validation with a first block in place settles them.
func (s *editSession) problems(body []byte) ([]byte, error) {
	name := filepath.Base(s.copy)
	err := s.t.CheckEdit(name, s.orig, body)
	if err == nil {
		return nil, nil
	}
	header := problemBlock(err)
	if again := s.t.Validate(name, append(bytes.Clone(header), body...)); again != nil {
		if h := problemBlock(again); bytes.Count(h, []byte("\n")) == bytes.Count(header, []byte("\n")) {
			header = h
		}
	}
	return header, err
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

// run opens the copy in the editor, on the terminal charter runs on. Ctrl-C
// there is the editor's (holdInterrupt); when charter is stopped (ctx),
// the editor gets SIGTERM, then is killed editorStopWait later.
func (s *editSession) run(ctx context.Context) error {
	cmd := exec.CommandContext(ctx, s.editor[0], append(s.editor[1:], s.copy)...)
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = editorStopWait
	cmd.Stdin, cmd.Stdout, cmd.Stderr = s.a.Stdin, s.a.Stdout, s.a.Stderr
	if s.a.JSON {
		cmd.Stdout = s.a.Stderr // stdout holds the one JSON document
	}
	cmd.Env = s.a.environ()
	release := s.a.holdInterrupt()
	err := cmd.Run()
	release()
	if ctx.Err() != nil {
		return errcode.Errorf(core.CodeInternal, "interrupted (%v): the editor was stopped and nothing was written", context.Cause(ctx))
	}
	if err != nil {
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
	data, rerr := s.a.Sys.ReadFile(s.copy, fsys.KindSettings)
	var tl *fsys.TooLargeError
	if errors.As(rerr, &tl) {
		return &keptError{err: err, copy: s.copy} // the user's work, too large to look at
	}
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
	for k, v := range errcode.Extras(e.err) {
		x[k] = v
	}
	return x
}
