package core

import (
	"github.com/agentkit/charter/core/fsys"

	"errors"
	"fmt"
	"io/fs"
	"strings"
	"syscall"
)

// ProjectDirVar names the project explicitly, like --project-dir.
const ProjectDirVar = "CHARTER_PROJECT_DIR"

// The project's files live in one directory at the project's root.
const (
	ProjectDirName   = ".charter"
	ProjectFile      = "settings.yaml"       // committed, shared by the team
	ProjectLocalFile = "settings.local.yaml" // personal, kept out of git
)

// Where a project came from (besides SourceFlag and SourceEnv).
const (
	SourceDiscovered = "discovered" // found from the working directory
	SourceRepository = "repository" // the repository root, to create the project's first file
)

// Project is the repository-level settings layer of this run.
type Project struct {
	Dir    string   `json:"path"`
	Files  []string `json:"files"` // the settings files that exist, absolute, shared one first
	Source string   `json:"-"`     // flag, env or discovered
	// Owner is the uid of another user who owns the project's .charter/,
	// set only where the user accepted it (ForeignProject); nil otherwise.
	Owner *int `json:"-"`
	paths fsys.PathStyle
}

// SettingsPath is the shared project file, <dir>/.charter/settings.yaml.
func (p *Project) SettingsPath() string { return p.paths.Join(p.Dir, ProjectDirName, ProjectFile) }

// LocalPath is the personal project file, <dir>/.charter/settings.local.yaml.
func (p *Project) LocalPath() string {
	return p.paths.Join(p.Dir, ProjectDirName, ProjectLocalFile)
}

// FindProject applies --project-dir > CHARTER_PROJECT_DIR > discovery from
// the working directory. flag is nil when --project-dir was not given; the
// result is nil when there is no project or noProject is set.
//
// Discovery stats <dir>/.charter in each directory from the working
// directory up to the file system root, and the two settings files only
// where that exists: one stat per level, never a listing or a read, so a
// deep working directory costs little. $HOME itself is skipped: a
// ~/.charter there would otherwise be a project for everything below it.
func (s *System) FindProject(flag *string, noProject bool) (*Project, error) {
	return s.FindProjectFrom(flag, noProject, "")
}

// FindProjectFrom is FindProject with discovery starting in from instead of
// the working directory ("" for the working directory): the MCP server
// looks for the project of its client's directory.
//
// A project another user owns (ForeignProject) is not used unless the user
// trusted it with its owner: a named one gives no project, a discovered
// one is passed over; each is a warning (System.Warn).
func (s *System) FindProjectFrom(flag *string, noProject bool, from string) (*Project, error) {
	return s.findProject(flag, noProject, from, func(fp ForeignProject) bool {
		if s.acceptedForeign(fp) {
			return true
		}
		s.warn(fp.Warning())
		return false
	})
}

// FindProjectToTrust is FindProject for `charter trust`: a project another
// user owns is found too, with its Owner set, so that the user can accept it.
func (s *System) FindProjectToTrust(flag *string) (*Project, error) {
	return s.findProject(flag, false, "", func(ForeignProject) bool { return true })
}

// IgnoredProjects lists the projects FindProject passes over or refuses
// because another user owns them, for doctor.
func (s *System) IgnoredProjects(flag *string, noProject bool) ([]ForeignProject, error) {
	var out []ForeignProject
	_, err := s.findProject(flag, noProject, "", func(fp ForeignProject) bool {
		if s.acceptedForeign(fp) {
			return true
		}
		out = append(out, fp)
		return false
	})
	return out, err
}

// findProject is FindProjectFrom; use decides whether a project another
// user owns is used.
func (s *System) findProject(flag *string, noProject bool, from string, use func(ForeignProject) bool) (*Project, error) {
	if noProject {
		if flag != nil {
			return nil, Errorf(CodeUsage, "--project-dir and --no-project contradict each other: give one of them")
		}
		return nil, nil
	}
	dir, source, err := s.explicitProject(flag)
	if err != nil {
		return nil, err
	}
	if dir != "" {
		files, infos, err := s.projectFileInfos(dir)
		if err != nil {
			return nil, err
		}
		p := &Project{Dir: dir, Files: files, Source: source, paths: s.Paths}
		if fi, err := s.Fs.Stat(s.child(dir, ProjectDirName)); err == nil {
			infos = append([]fs.FileInfo{fi}, infos...)
			files = append([]string{s.child(dir, ProjectDirName)}, files...)
		}
		if fp, foreign := s.foreignProject(dir, files, infos); foreign {
			if !use(fp) {
				return nil, nil
			}
			p.Owner = &fp.Owner
		}
		return p, nil
	}

	wd, err := s.startDir(from)
	if err != nil {
		return nil, err
	}
	home, _ := s.Home() // unknown home: nothing to skip
	for cur := wd; ; {
		if home == "" || !s.Paths.EqualName(cur, home) {
			fi, err := s.Fs.Stat(s.child(cur, ProjectDirName))
			switch {
			case err == nil && fi.IsDir():
				files, infos, err := s.projectFileInfos(cur)
				if err != nil {
					return nil, err
				}
				var fp ForeignProject
				foreign := false
				if len(files) > 0 {
					fp, foreign = s.foreignProject(cur, append([]string{s.child(cur, ProjectDirName)}, files...), append([]fs.FileInfo{fi}, infos...))
				}
				switch {
				case len(files) == 0:
				case !foreign:
					return &Project{Dir: cur, Files: files, Source: SourceDiscovered, paths: s.Paths}, nil
				case use(fp):
					return &Project{Dir: cur, Files: files, Source: SourceDiscovered, Owner: &fp.Owner, paths: s.Paths}, nil
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

// ProjectAt is the project rooted at dir (an absolute, clean path, such as
// ProjectRootForCreate returns), with the settings files that exist there.
func (s *System) ProjectAt(dir, source string) (*Project, error) {
	files, err := s.projectFiles(dir)
	if err != nil {
		return nil, err
	}
	return &Project{Dir: dir, Files: files, Source: source, paths: s.Paths}, nil
}

// ProjectRootForCreate is the directory to create .charter/ in when the
// project has no settings file yet: --project-dir or CHARTER_PROJECT_DIR,
// else the repository root (the nearest directory upwards holding .git).
// $HOME is never chosen by the walk, because discovery would not find a
// project there afterwards.
func (s *System) ProjectRootForCreate(flag *string) (string, error) {
	dir, _, err := s.explicitProject(flag)
	if err != nil || dir != "" {
		return dir, err
	}
	wd, err := s.workDir()
	if err != nil {
		return "", err
	}
	home, _ := s.Home()
	for cur := wd; ; {
		_, err := s.Fs.Stat(s.child(cur, ".git")) // a directory, or a file in a worktree or submodule
		switch {
		case err == nil && home != "" && s.Paths.EqualName(cur, home):
			return "", Errorf(CodeUsage, "the nearest git repository is your home directory %s, which charter never treats as a project: give --project-dir DIR", cur)
		case err == nil:
			return cur, nil
		case !notExist(err):
			return "", fmt.Errorf("find repository root: %w (give --project-dir DIR)", err)
		}
		parent := s.Paths.Dir(cur)
		if s.Paths.EqualName(parent, cur) {
			return "", Errorf(CodeUsage, "not inside a git repository: run inside one or give --project-dir DIR")
		}
		cur = parent
	}
}

// explicitProject returns the directory --project-dir or CHARTER_PROJECT_DIR
// names, normalised, or "" when neither does. The directory must exist: a
// mistyped path would otherwise silently drop the team's settings.
func (s *System) explicitProject(flag *string) (dir, source string, err error) {
	name := "--project-dir"
	switch {
	case flag != nil:
		if strings.TrimSpace(*flag) == "" {
			return "", "", Errorf(CodeUsage, "--project-dir is blank: give a directory path, or leave the flag out to find the project from the working directory")
		}
		dir, source = *flag, SourceFlag
	case strings.TrimSpace(s.Getenv(ProjectDirVar)) != "":
		dir, source, name = s.Getenv(ProjectDirVar), SourceEnv, ProjectDirVar
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
		return "", "", Errorf(CodeUsage, "%s %s: no such directory: give the project's root directory", name, dir)
	case err != nil:
		return "", "", fmt.Errorf("%s: %w", name, err)
	case !fi.IsDir():
		return "", "", Errorf(CodeUsage, "%s %s: not a directory: give the project's root directory", name, dir)
	}
	return dir, source, nil
}

// projectFiles lists the settings files that exist under dir/.charter.
func (s *System) projectFiles(dir string) ([]string, error) {
	files, _, err := s.projectFileInfos(dir)
	return files, err
}

// projectFileInfos is projectFiles with what Stat said of each file, for
// the ownership check.
func (s *System) projectFileInfos(dir string) ([]string, []fs.FileInfo, error) {
	files := []string{}
	var infos []fs.FileInfo
	for _, name := range []string{ProjectFile, ProjectLocalFile} {
		p := s.Paths.Join(dir, ProjectDirName, name)
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
func (s *System) child(dir, name string) string {
	if strings.HasSuffix(dir, s.Paths.Sep()) || s.Paths.Windows && strings.HasSuffix(dir, "/") {
		return dir + name
	}
	return dir + s.Paths.Sep() + name
}

// startDir is dir normalised, or the working directory when dir is "".
func (s *System) startDir(dir string) (string, error) {
	if dir == "" {
		return s.workDir()
	}
	return s.Normalize(dir)
}

// workDir is the normalised working directory.
func (s *System) workDir() (string, error) {
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
