package core

import "github.com/agentkit/charter/core/fsys"

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

// NewProject is the project rooted at dir with its settings files, as
// discovery (core/project) found it.
func NewProject(paths fsys.PathStyle, dir, source string, files []string) *Project {
	return &Project{Dir: dir, Files: files, Source: source, paths: paths}
}

// LocalPath is the personal project file, <dir>/.charter/settings.local.yaml.
func (p *Project) LocalPath() string {
	return p.paths.Join(p.Dir, ProjectDirName, ProjectLocalFile)
}
