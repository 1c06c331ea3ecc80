// Package project finds the project of a run (SPEC §9): --project-dir,
// CHARTER_PROJECT_DIR, or the nearest directory upwards holding
// .charter/settings.yaml or settings.local.yaml; a project another user owns
// only once the user trusted it with its owner.
package project

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"syscall"

	"github.com/agentkit/charter/core"
)

// Find applies --project-dir > CHARTER_PROJECT_DIR > discovery from
// the working directory. flag is nil when --project-dir was not given; the
// result is nil when there is no project or noProject is set.
//
// Discovery stats <dir>/.charter in each directory from the working
// directory up to the file system root, and the two settings files only
// where that exists: one stat per level, never a listing or a read, so a
// deep working directory costs little. $HOME itself is skipped: a
// ~/.charter there would otherwise be a project for everything below it.
func Find(s *core.System, flag *string, noProject bool) (*core.Project, error) {
	return FindFrom(s, flag, noProject, "")
}

// FindFrom is Find with discovery starting in from instead of
// the working directory ("" for the working directory): the MCP server
// looks for the project of its client's directory.
//
// A project another user owns (Foreign) is not used unless the user
// trusted it with its owner: a named one gives no project, a discovered
// one is passed over; each is a warning (System.Warn).
func FindFrom(s *core.System, flag *string, noProject bool, from string) (*core.Project, error) {
	return find(s, flag, noProject, from, func(fp Foreign) bool {
		if acceptedForeign(s, fp) {
			return true
		}
		if s.Warn != nil {
			s.Warn(fp.Warning())
		}
		return false
	})
}

// ToTrust is Find for `charter trust`: a project another
// user owns is found too, with its Owner set, so that the user can accept it.
func ToTrust(s *core.System, flag *string) (*core.Project, error) {
	return find(s, flag, false, "", func(Foreign) bool { return true })
}

// Ignored lists the projects Find passes over or refuses
// because another user owns them, for doctor.
func Ignored(s *core.System, flag *string, noProject bool) ([]Foreign, error) {
	var out []Foreign
	_, err := find(s, flag, noProject, "", func(fp Foreign) bool {
		if acceptedForeign(s, fp) {
			return true
		}
		out = append(out, fp)
		return false
	})
	return out, err
}

// find is FindFrom; use decides whether a project another
// user owns is used.
func find(s *core.System, flag *string, noProject bool, from string, use func(Foreign) bool) (*core.Project, error) {
	if noProject {
		if flag != nil {
			return nil, core.Errorf(core.CodeUsage, "--project-dir and --no-project contradict each other: give one of them")
		}
		return nil, nil
	}
	dir, source, err := explicit(s, flag)
	if err != nil {
		return nil, err
	}
	if dir != "" {
		files, infos, err := fileInfos(s, dir)
		if err != nil {
			return nil, err
		}
		p := core.NewProject(s.Paths, dir, source, files)
		if fi, err := s.Fs.Stat(child(s, dir, core.ProjectDirName)); err == nil {
			infos = append([]fs.FileInfo{fi}, infos...)
			files = append([]string{child(s, dir, core.ProjectDirName)}, files...)
		}
		if fp, foreign := foreignProject(s, dir, files, infos); foreign {
			if !use(fp) {
				return nil, nil
			}
			p.Owner = &fp.Owner
		}
		return p, nil
	}

	wd, err := startDir(s, from)
	if err != nil {
		return nil, err
	}
	home, _ := s.Home() // unknown home: nothing to skip
	for cur := wd; ; {
		if home == "" || !s.Paths.EqualName(cur, home) {
			fi, err := s.Fs.Stat(child(s, cur, core.ProjectDirName))
			switch {
			case err == nil && fi.IsDir():
				files, infos, err := fileInfos(s, cur)
				if err != nil {
					return nil, err
				}
				var fp Foreign
				foreign := false
				if len(files) > 0 {
					fp, foreign = foreignProject(s, cur, append([]string{child(s, cur, core.ProjectDirName)}, files...), append([]fs.FileInfo{fi}, infos...))
				}
				switch {
				case len(files) == 0:
				case !foreign:
					return core.NewProject(s.Paths, cur, core.SourceDiscovered, files), nil
				case use(fp):
					p := core.NewProject(s.Paths, cur, core.SourceDiscovered, files)
					p.Owner = &fp.Owner
					return p, nil
				}
			case err != nil && !notExist(err):
				return nil, fmt.Errorf("find project: %w (give --project-dir DIR or --no-project)", err)
			}
		}
		parent := s.Paths.Dir(cur)
		if s.Paths.EqualName(parent, cur) {
			return nil, nil
		}
		cur = parent
	}
}

// At is the project rooted at dir (an absolute, clean path, such as
// RootForCreate returns), with the settings files that exist there.
func At(s *core.System, dir, source string) (*core.Project, error) {
	files, err := files(s, dir)
	if err != nil {
		return nil, err
	}
	return core.NewProject(s.Paths, dir, source, files), nil
}

// RootForCreate is the directory to create .charter/ in when the
// project has no settings file yet: --project-dir or CHARTER_PROJECT_DIR,
// else the repository root (the nearest directory upwards holding .git).
// $HOME is never chosen by the walk, because discovery would not find a
// project there afterwards.
func RootForCreate(s *core.System, flag *string) (string, error) {
	dir, _, err := explicit(s, flag)
	if err != nil || dir != "" {
		return dir, err
	}
	wd, err := workDir(s)
	if err != nil {
		return "", err
	}
	home, _ := s.Home()
	for cur := wd; ; {
		_, err := s.Fs.Stat(child(s, cur, ".git")) // a directory, or a file in a worktree or submodule
		switch {
		case err == nil && home != "" && s.Paths.EqualName(cur, home):
			return "", core.Errorf(core.CodeUsage, "the nearest git repository is your home directory %s, which charter never treats as a project: give --project-dir DIR", cur)
		case err == nil:
			return cur, nil
		case !notExist(err):
			return "", fmt.Errorf("find repository root: %w (give --project-dir DIR)", err)
		}
		parent := s.Paths.Dir(cur)
		if s.Paths.EqualName(parent, cur) {
			return "", core.Errorf(core.CodeUsage, "not inside a git repository: run inside one or give --project-dir DIR")
		}
		cur = parent
	}
}

// explicit returns the directory --project-dir or CHARTER_PROJECT_DIR
// names, normalised, or "" when neither does. The directory must exist: a
// mistyped path would otherwise silently drop the team's settings.
func explicit(s *core.System, flag *string) (dir, source string, err error) {
	name := "--project-dir"
	switch {
	case flag != nil:
		if strings.TrimSpace(*flag) == "" {
			return "", "", core.Errorf(core.CodeUsage, "--project-dir is blank: give a directory path, or leave the flag out to find the project from the working directory")
		}
		dir, source = *flag, core.SourceFlag
	case strings.TrimSpace(s.Getenv(core.ProjectDirVar)) != "":
		dir, source, name = s.Getenv(core.ProjectDirVar), core.SourceEnv, core.ProjectDirVar
	default:
		return "", "", nil
	}
	dir, err = s.Normalize(dir)
	if err != nil {
		return "", "", fmt.Errorf("%s: %w", name, err)
	}
	fi, err := s.Fs.Stat(dir)
	switch {
	case notExist(err):
		return "", "", core.Errorf(core.CodeUsage, "%s %s: no such directory: give the project's root directory", name, dir)
	case err != nil:
		return "", "", fmt.Errorf("%s: %w", name, err)
	case !fi.IsDir():
		return "", "", core.Errorf(core.CodeUsage, "%s %s: not a directory: give the project's root directory", name, dir)
	}
	return dir, source, nil
}

// files lists the settings files that exist under dir/.charter.
func files(s *core.System, dir string) ([]string, error) {
	files, _, err := fileInfos(s, dir)
	return files, err
}

// fileInfos is files with what Stat said of each file, for
// the ownership check.
func fileInfos(s *core.System, dir string) ([]string, []fs.FileInfo, error) {
	files := []string{}
	var infos []fs.FileInfo
	for _, name := range []string{core.ProjectFile, core.ProjectLocalFile} {
		p := s.Paths.Join(dir, core.ProjectDirName, name)
		fi, err := s.Fs.Stat(p)
		switch {
		case err == nil && !fi.IsDir():
			files = append(files, p)
			infos = append(infos, fi)
		case err != nil && !notExist(err):
			return nil, nil, fmt.Errorf("find project: %w", err)
		}
	}
	return files, infos, nil
}

// child appends name to the clean directory dir without cleaning again:
// the walk calls it once per level.
func child(s *core.System, dir, name string) string {
	if strings.HasSuffix(dir, s.Paths.Sep()) || s.Paths.Windows && strings.HasSuffix(dir, "/") {
		return dir + name
	}
	return dir + s.Paths.Sep() + name
}

// startDir is dir normalised, or the working directory when dir is "".
func startDir(s *core.System, dir string) (string, error) {
	if dir == "" {
		return workDir(s)
	}
	return s.Normalize(dir)
}

// workDir is the normalised working directory.
func workDir(s *core.System) (string, error) {
	if s.Getwd == nil {
		return "", errors.New("find project: no working directory: give --project-dir DIR or --no-project")
	}
	wd, err := s.Getwd()
	if err != nil {
		return "", fmt.Errorf("find project: working directory: %w (give --project-dir DIR or --no-project)", err)
	}
	return s.Normalize(wd)
}

// notExist is true for a missing path, also when a parent is a file.
func notExist(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}
