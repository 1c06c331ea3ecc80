package apply

import (
	"slices"
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/agents"
	"github.com/agentkit/charter/core/profile"
)

// All selects every known agent.
const All = "all"

// Levels of a target.
const (
	LevelUser    = "user"    // the agent's user-level file, for this scope
	LevelProject = "project" // the agent's file in a project
)

// agentFlag is how a person chooses agents on the command line.
func agentFlag(sys *core.System) string {
	return "--agent NAME (`charter agents` lists them) or --agent all"
}

// fileAt is the agent's file name at a level, "" when it reads none there.
func fileAt(a agents.Agent, level string) string {
	if level == LevelProject {
		return a.ProjectFile
	}
	return a.UserFile
}

// selectAgents resolves names to agents in canonical order, for a level.
// No names means the default: at user level the active profile's agents,
// else every agent whose directory exists; at project level CLAUDE.md and
// AGENTS.md's agents plus every agent whose file is already there.
func selectAgents(sys *core.System, names []string, level string, proj *core.Project) ([]agents.Agent, error) {
	if len(names) > 0 {
		return namedAgents(sys, names, level)
	}
	if level == LevelProject {
		return projectAgents(sys, proj), nil
	}
	if p := profile.Active(sys); p.Active {
		var out []agents.Agent
		for _, a := range sys.AgentTable.All() {
			if a.Provider == *p.Provider && a.UserFile != "" {
				out = append(out, a)
			}
		}
		if len(out) == 0 {
			return nil, core.Errorf(core.CodeNoAgent, "no agent instruction file is known for provider %q of the profile %s: choose an agent with %s", *p.Provider, p.Name(), agentFlag(sys))
		}
		return out, nil
	}
	var out []agents.Agent
	var dirs []string
	for _, a := range sys.AgentTable.All() {
		if a.UserFile == "" {
			continue
		}
		dir, err := profile.AgentDir(sys, a)
		if err != nil {
			return nil, err
		}
		if fi, err := sys.Fs.Stat(dir); err == nil && fi.IsDir() {
			out = append(out, a)
		}
		if !slices.Contains(dirs, dir) {
			dirs = append(dirs, dir)
		}
	}
	if len(out) == 0 {
		return nil, core.Errorf(core.CodeNoAgent, "no agent directory found (%s): choose an agent with %s", strings.Join(dirs, ", "), agentFlag(sys))
	}
	return out, nil
}

// withAlso adds the agents named in also to the default selection (which
// may have found none), in canonical order.
func withAlso(sys *core.System, sel []agents.Agent, err error, also []string, level string) ([]agents.Agent, error) {
	if err != nil && core.ErrorCode(err) != core.CodeNoAgent {
		return nil, err
	}
	more, err := namedAgents(sys, also, level)
	if err != nil {
		return nil, err
	}
	var out []agents.Agent
	for _, a := range sys.AgentTable.All() {
		if slices.ContainsFunc(sel, func(s agents.Agent) bool { return s.Name == a.Name }) ||
			slices.ContainsFunc(more, func(s agents.Agent) bool { return s.Name == a.Name }) {
			out = append(out, a)
		}
	}
	return out, nil
}

// namedAgents checks --agent names. "all" takes every agent that reads a
// file at this level; an agent named on its own that reads none there is a
// usage error that says where it does read one.
func namedAgents(sys *core.System, names []string, level string) ([]agents.Agent, error) {
	want := map[string]bool{}
	for _, n := range names {
		n = strings.ToLower(strings.TrimSpace(n))
		a, ok := sys.AgentTable.Lookup(n)
		switch {
		case n == All:
		case !ok:
			return nil, core.Errorf(core.CodeUnknownAgent, "unknown agent %q: choose one that `charter agents` lists, or all", n)
		case fileAt(a, level) == "" && level == LevelUser && a.User.PermFormat == "" && a.User.MCPFormat == "":
			return nil, core.Errorf(core.CodeUnknownAgent, "%s reads no user-level instruction file, only %s in a project: run `charter apply --project --agent %s`", n, a.ProjectFile, n)
		case fileAt(a, level) == "" && level == LevelProject:
			return nil, core.Errorf(core.CodeUnknownAgent, "%s reads no project instruction file: run `charter apply --agent %s` for its user-level file", n, n)
		}
		want[n] = true
	}
	var out []agents.Agent
	for _, a := range sys.AgentTable.All() {
		if (want[a.Name] || want[All]) && fileAt(a, level) != "" {
			out = append(out, a)
		}
	}
	return out, nil
}

// projectAgents are the agents apply --project writes for by default: those
// marked ProjectAlways, and every other agent whose file is in the project
// already (for a rules file charter owns whole, whose rules directory is).
func projectAgents(sys *core.System, proj *core.Project) []agents.Agent {
	var out []agents.Agent
	// A file several agents read as their own (AGENTS.md) is a sign of
	// the first of them in the table only.
	seen := map[string]bool{}
	for _, a := range sys.AgentTable.All() {
		if a.ProjectFile == "" || seen[a.ProjectFile] {
			continue
		}
		seen[a.ProjectFile] = true
		p := a.ProjectPath(sys.Paths, proj.Dir)
		if a.ProjectAlways || exists(sys, p) || (a.Format == agents.FormatRules && exists(sys, sys.Paths.Dir(p))) {
			out = append(out, a)
		}
	}
	return out
}

func exists(sys *core.System, p string) bool {
	_, err := sys.Fs.Stat(p)
	return err == nil
}

// AgentInfo is one agent and where its files are, for doctor, the hub and
// the docs.
type AgentInfo struct {
	Name     string `json:"name"`
	Provider string `json:"provider,omitempty"`
	Format   string `json:"format"`
	// UserPath is the user-level file for this scope ("" when the agent
	// reads none); UserExists says whether it is there.
	UserPath   string `json:"userPath,omitempty"`
	UserExists bool   `json:"userExists"`
	// ProjectPath is the file in the project (or the project-relative path
	// when there is no project); "" when the agent reads none.
	ProjectPath   string `json:"projectPath,omitempty"`
	ProjectExists bool   `json:"projectExists"`
}

// Inventory lists every agent of sys's table with its targets in this
// scope and, when proj is not nil, in that project.
func Inventory(sys *core.System, proj *core.Project) ([]AgentInfo, error) {
	var out []AgentInfo
	for _, a := range sys.AgentTable.All() {
		info := AgentInfo{Name: a.Name, Provider: a.Provider, Format: string(a.Format)}
		p, err := profile.UserPath(sys, a)
		if err != nil {
			return nil, err
		}
		if p != "" {
			info.UserPath, info.UserExists = p, exists(sys, p)
		}
		switch {
		case a.ProjectFile == "":
		case proj != nil:
			info.ProjectPath = a.ProjectPath(sys.Paths, proj.Dir)
			info.ProjectExists = exists(sys, info.ProjectPath)
		default:
			info.ProjectPath = a.ProjectFile
		}
		out = append(out, info)
	}
	return out, nil
}
