package session

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"slices"
	"strings"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/agents"
	"github.com/agentkit/charter/core/apply"
	"github.com/agentkit/charter/core/fsys"
	"github.com/agentkit/charter/core/profile"
	"github.com/agentkit/charter/core/projection"
)

// UninstallRequest is one `charter uninstall`.
type UninstallRequest struct {
	Project bool // the repository's files, else the user level's
	Force   bool // let go of recorded files edited since: they stay as they are
	DryRun  bool // say what would change; change nothing
	Sources bool // remove the level's source folders too
	// ConfirmShared writes through links the companion shares; without it
	// Confirm, when set, is asked at the first such link (the command
	// line's question), and a refusal writes nothing.
	ConfirmShared bool
	Confirm       func(*core.SharedWriteError) (bool, error)
}

// uninstallPlan is what uninstall plans at a level, decided before anything
// is written: the edits that take charter's entries out, the recorded
// files to delete, and the files import took over, to put back.
type uninstallPlan struct {
	Full      *apply.Full
	Restore   []Original // Path absolute
	Root      string     // the project root, "" at user level
	originals string     // the file that keeps them
	record    string
}

// planUninstall plans taking charter out of the agents' files at a level
// (SPEC §16). Nothing is written.
func (s *Session) planUninstall(ctx context.Context, req UninstallRequest) (*uninstallPlan, error) {
	var proj *core.Project
	if req.Project {
		p, err := s.Project()
		if err != nil || p == nil {
			return nil, orNoProject(err)
		}
		proj = p
	}
	sc, err := s.Scope()
	if err != nil {
		return nil, err
	}
	u := &uninstallPlan{record: s.Sys.Paths.Join(sc.Path, "state", "projection.json")}
	if proj != nil {
		u.Root = proj.Dir
		u.record = s.Sys.Paths.Join(proj.Dir, core.ProjectDirName, "projection.lock")
	}
	if u.Full, err = apply.PlanUninstall(ctx, s.Sys, proj, u.record, req.Force); err != nil {
		return nil, err
	}
	if u.originals, err = s.originalsPath(u.Root); err != nil {
		return nil, err
	}
	o, err := s.readOriginals(u.originals)
	if err != nil {
		return nil, err
	}
	for _, f := range o.Files {
		if u.Root != "" {
			f.Path = s.Sys.Paths.Join(append([]string{u.Root}, strings.Split(f.Path, "/")...)...)
		}
		u.Restore = append(u.Restore, f)
	}
	return u, nil
}

// runUninstall carries u out: charter's entries and recorded files first
// (nothing when a recorded file was edited and not forced, or a shared
// link is not confirmed), then each file import took over is written back
// where nothing stands now, and charter's record and kept originals go.
// It returns the originals it put back and the ones it left, because a
// file stands there (edited and let go, or made since).
func (s *Session) runUninstall(ctx context.Context, u *uninstallPlan, confirm bool) (results []apply.Result, restored, left []string, err error) {
	if results, err = apply.RunAll(ctx, s.Sys, u.Full, confirm); err != nil {
		return nil, nil, nil, err
	}
	opts := fsys.WriteOptions{ConfirmShared: confirm, Within: u.Root, Whole: u.Root != ""}
	for _, f := range u.Restore {
		o := opts
		o.NewMode = f.Mode
		err := s.Sys.UpdateFileOpts(f.Path, o, func(old []byte) ([]byte, error) {
			if bytes.Equal(old, f.Data) && old != nil {
				return nil, errSame // as it was: nothing to put back
			}
			if old != nil && (f.Left == "" || projection.Sum(old) != f.Left) {
				return nil, errStands
			}
			return f.Data, nil
		})
		switch {
		case errors.Is(err, errSame):
			restored = append(restored, f.Path)
		case errors.Is(err, errStands):
			left = append(left, f.Path)
		case err != nil:
			return results, restored, left, err
		default:
			restored = append(restored, f.Path)
		}
	}
	s.dropEmptiedDirs(u, results, confirm)
	for _, p := range []string{u.record, u.originals} {
		if err := s.Sys.RemoveFile(p, fsys.WriteOptions{ConfirmShared: confirm, Within: s.within(u, p), Whole: true}); err != nil && !fsys.IsAbsent(err) {
			return results, restored, left, err
		}
	}
	return results, restored, left, nil
}

var (
	errStands = errors.New("a file stands there")
	errSame   = errors.New("the file is as it was")
)

// within is the project root when p lies in it (the lock), else "" (the
// scope's own state files).
func (s *Session) within(u *uninstallPlan, p string) string {
	if u.Root == "" {
		return ""
	}
	if _, ok := s.Sys.Paths.Within(u.Root, p); ok {
		return u.Root
	}
	return ""
}

// sourceFolders are the level's source folders that exist (rules/,
// skills/, commands/, subagents/), which `uninstall --sources` removes.
func (s *Session) sourceFolders(project bool) ([]string, error) {
	dir, _, err := s.SourceDir(project)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, k := range []string{"rules", "skills", "commands", "subagents"} {
		p := s.Sys.Paths.Join(dir, k)
		if fi, err := s.Sys.Fs.Stat(p); err == nil && fi.IsDir() {
			out = append(out, p)
		}
	}
	return out, nil
}

// removeSources removes the folders sourceFolders named, file by file
// through the guarded write path, deepest folders first. A link or
// anything but a file or folder inside stops it, named: charter removes
// only what it can tell is a source. A cancelled ctx stops it between
// folders, so each folder is either removed or left whole.
func (s *Session) removeSources(ctx context.Context, folders []string, root string, confirm bool) error {
	o := fsys.WriteOptions{ConfirmShared: confirm, Within: root, Whole: root != ""}
	for _, top := range folders {
		if ctx.Err() != nil {
			return apply.Stopped(ctx)
		}
		var files, dirs []string
		err := afero.Walk(s.Sys.Fs, top, func(p string, fi fs.FileInfo, err error) error {
			switch {
			case err != nil:
				return err
			case fi.IsDir():
				dirs = append(dirs, p)
			case fi.Mode().IsRegular():
				files = append(files, p)
			default:
				return core.Errorf(core.CodeNotRegularFile, "%s is %s, not a source: remove it by hand, then run `charter uninstall --sources` again", p, fsys.Describe(fi.Mode()))
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, f := range files {
			if err := s.Sys.RemoveFile(f, o); err != nil {
				return err
			}
		}
		slices.Reverse(dirs) // Walk lists a folder before what it holds
		for _, d := range dirs {
			if _, err := s.Sys.RemoveEmptyDir(d, o); err != nil {
				return err
			}
		}
	}
	return nil
}

// dropEmptiedDirs removes the folders charter's files leave empty (it
// made them for those files: .agents/skills/, a commands/, .codex/), up to
// the project root or the agent's folder; a folder holding anything
// stays. In a project the agents' places are swept too (an earlier apply's
// pruned folder): git keeps no empty folder, so none is the repository's.
// Best effort: a folder left behind is no harm.
func (s *Session) dropEmptiedDirs(u *uninstallPlan, results []apply.Result, confirm bool) {
	o := fsys.WriteOptions{ConfirmShared: confirm, Within: u.Root, Whole: u.Root != ""}
	stop := map[string]bool{u.Root: true}
	for _, a := range s.Sys.AgentTable.All() {
		if d, err := profile.AgentDir(s.Sys, a); err == nil {
			stop[d] = true
		}
	}
	var gone []string
	if u.Full.Content != nil {
		for _, e := range u.Full.Content.Entries {
			if e.Path != nil && e.State == projection.StatePruned {
				gone = append(gone, *e.Path)
			}
		}
	}
	for _, r := range results {
		if r.State == projection.StatePruned {
			gone = append(gone, r.Path)
		}
	}
	if u.Root != "" {
		for _, a := range s.Sys.AgentTable.All() {
			for _, pl := range []agents.Place{a.Project.Rules, a.Project.Skills, a.Project.Commands, a.Project.Subagents} {
				if pl.Dir != "" {
					gone = append(gone, s.Sys.Paths.Join(append([]string{u.Root}, strings.Split(pl.Dir+"x", "/")...)...))
				}
			}
		}
	}
	for _, p := range gone {
		for d := s.Sys.Paths.Dir(p); !stop[d] && d != s.Sys.Paths.Dir(d); d = s.Sys.Paths.Dir(d) {
			if u.Root != "" {
				if _, in := s.Sys.Paths.Within(u.Root, d); !in {
					break
				}
			}
			if _, err := s.Sys.Fs.Stat(d); fsys.IsAbsent(err) {
				continue // a skill's folder, which the prune took
			}
			if ok, err := s.Sys.RemoveEmptyDir(d, o); err != nil || !ok {
				break
			}
		}
	}
}
