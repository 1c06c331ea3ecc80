package session

import (
	"bytes"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/lazy"
	"github.com/agentkit/charter/core/project"
	"github.com/agentkit/charter/core/settings"
)

// Target is the file of one writable layer: the scope's, or the project's
// shared or personal one.
type Target struct {
	s  *Session
	st *settings.Store
}

// flagOf names the flag that chooses a project layer on the command line.
var flagOf = lazy.Value[map[string]string]{Make: func() map[string]string {
	return map[string]string{settings.LayerProject: "project", settings.LayerProjectLocal: "local"}
}}

// Target is the file layer writes go to ("" is the scope's). Without a
// project yet, a project layer is created at the repository root (or
// --project-dir); a server offers its own repository root.
func (s *Session) Target(layer string) (*Target, error) {
	inProject := layer == settings.LayerProject || layer == settings.LayerProjectLocal
	if inProject && s.opts.NoProject {
		return nil, core.Errorf(core.CodeUsage, "--%s writes the project's file, but --no-project turns the project off: give one of them", flagOf.Get()[layer])
	}
	st, err := s.Store()
	if err != nil {
		return nil, err
	}
	if inProject && st.Project() == nil && !s.opts.Served {
		root, err := s.CreateRoot()
		if err != nil {
			return nil, err
		}
		p, err := project.At(s.Sys, root, core.SourceRepository)
		if err != nil {
			return nil, err
		}
		sc, _ := s.Scope()
		st = settings.Open(s.Sys, sc, p, st.Policy())
	}
	if st, err = st.Target(layer); err != nil {
		return nil, err
	}
	if st.TargetLayer() == settings.LayerScope {
		// A scope file charter creates points editors at the schema.
		sc, _ := s.Scope()
		st = st.WithHeader(settings.Header(s.Sys, sc))
	}
	return &Target{s: s, st: st}, nil
}

// CreateRoot is where the project's first file goes when there is none
// yet: --project-dir or CHARTER_PROJECT_DIR, else the repository root
// (for a server, the one it offers). "" with --no-project.
func (s *Session) CreateRoot() (string, error) {
	switch {
	case s.opts.NoProject:
		return "", nil
	case s.opts.Served:
		return s.opts.ProjectRoot, nil
	}
	return project.RootForCreate(s.Sys, s.opts.ProjectDir)
}

// Path is the file this target writes.
func (t *Target) Path() string { return t.st.Path() }

// CheckEdit checks one round of an editor's copy of the target, named
// name: its content as a read checks it, then the values the policy
// refuses (only those that change from old).
func (t *Target) CheckEdit(name string, old, body []byte) error {
	if err := settings.Validate(name, body); err != nil {
		return err
	}
	return t.st.CheckEdit(old, body)
}

// Validate checks data as a read checks the target's content, named name,
// without the policy: where the problems of a copy lie.
func (t *Target) Validate(name string, data []byte) error { return settings.Validate(name, data) }

// Store is the layered store that writes this target.
func (t *Target) Store() *settings.Store { return t.st }

// Write applies one update (see WriteAll).
func (t *Target) Write(u settings.Update) (*settings.Snapshot, error) {
	r := t.WriteAll([]settings.Update{u})[0]
	return r.Snapshot, r.Err
}

// WriteAll applies updates in one write of the file (settings.Store's
// WriteAll): a scope file it creates starts with the schema comment, and
// after a write of the scope file the schema file in the config root is
// kept current. That follow-up is editor support: when it fails, the
// setting is still written and Warn says so.
func (t *Target) WriteAll(us []settings.Update) []settings.Result {
	res := t.st.WriteAll(us)
	confirm, written := true, false
	for i, r := range res {
		if r.Err == nil {
			written, confirm = true, confirm && us[i].ConfirmShared
		}
	}
	if written {
		t.written(confirm)
	}
	return res
}

// Replace writes body over the file if it still holds orig (nil: the file
// did not exist), as `settings edit` does after the editor: a file that
// changed meanwhile is not overwritten (code stale_etag). A scope file it
// creates gets the schema comment, unless body has one, and the schema
// file it points at.
func (t *Target) Replace(orig, body []byte, confirmShared bool) error {
	path := t.Path()
	if err := t.st.ListLocal(confirmShared); err != nil {
		return err // a personal file is listed in .gitignore before it exists
	}
	headed := false
	err := t.s.Sys.UpdateFileOpts(path, t.st.WriteOptions(confirmShared), func(cur []byte) ([]byte, error) {
		if !bytes.Equal(cur, orig) {
			return nil, core.Errorf(core.CodeStaleETag, "%s changed on disk while you edited it, so nothing was written: run `charter settings edit` again and carry your changes over", path)
		}
		if cur == nil && t.st.TargetLayer() == settings.LayerScope && len(bytes.TrimSpace(body)) > 0 && !settings.HasHeader(body) {
			body, headed = append([]byte(settings.Header(t.s.Sys, t.scope())), body...), true
		}
		if body == nil {
			body = []byte{} // an emptied file is written, not skipped
		}
		return body, nil
	})
	if err != nil {
		return err
	}
	if headed || t.st.TargetLayer() != settings.LayerScope {
		t.written(confirmShared)
	}
	return nil
}

func (t *Target) scope() core.Scope {
	sc, _ := t.s.Scope() // resolved: the target exists
	return sc
}

// written follows a successful write: a scope write keeps the schema file
// current, and a write that created the project's first file makes it the
// session's project, as a later run would find it.
func (t *Target) written(confirmShared bool) {
	s := t.s
	if t.st.TargetLayer() != settings.LayerScope {
		if found, err := s.Project(); err == nil && found == nil && !s.opts.Served {
			if p, err := project.FindFrom(s.Sys, s.opts.ProjectDir, s.opts.NoProject, s.opts.From); err == nil && p != nil {
				s.mu.Lock()
				s.created = p
				s.mu.Unlock()
			}
		}
		return
	}
	if err := settings.WriteSchemaFile(s.Sys, t.scope(), confirmShared); err != nil {
		s.warn(s.Sys.ErrorMessage(err) + " (the setting is written; editors may not complete its keys)")
	}
}
