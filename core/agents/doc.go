package agents

import (
	"fmt"
	"strings"
)

// AgentDoc is one agent of the table as `charter agents --json`, the hub
// and docs/agents.md show it.
type AgentDoc struct {
	Name     string    `json:"name"`
	Display  string    `json:"display"`
	Provider string    `json:"provider,omitempty"`
	HomeVar  string    `json:"homeVar,omitempty"`
	HomeDir  string    `json:"homeDir,omitempty"`
	HomeSub  string    `json:"homeSub,omitempty"`    // below $HomeVar
	XDGDir   string    `json:"xdgDir,omitempty"`     // below $XDG_CONFIG_HOME
	WinDir   string    `json:"windowsDir,omitempty"` // below the home, on Windows
	User     LevelDoc  `json:"user"`
	Project  LevelDoc  `json:"project"`
	Reads    []ReadDoc `json:"reads"`
	Limit    int       `json:"limit,omitempty"`
	Scoping  string    `json:"scoping"`
	Trust    string    `json:"trust"`
	Hooks    string    `json:"hooks,omitempty"`
	NPM      string    `json:"npm,omitempty"`
	Verified string    `json:"verified"`
	Sources  []string  `json:"sources"`
}

// LevelDoc is where an agent keeps each kind at one level: a place, or
// "in-block" (rules written out in charter's block), or "unsupported".
type LevelDoc struct {
	Instructions string `json:"instructions,omitempty"`
	Rules        string `json:"rules"`
	Skills       string `json:"skills"`
	Commands     string `json:"commands"`
	Subagents    string `json:"subagents"`
	// Permissions and MCP are the files of permission rules and MCP
	// servers, with their format; "unsupported" with the reason when none.
	Permissions string `json:"permissions"`
	MCP         string `json:"mcp"`
}

// ReadDoc is a place the agent loads in a project.
type ReadDoc struct {
	Path    string `json:"path"`
	Scoped  bool   `json:"scoped,omitempty"`
	Imports bool   `json:"imports,omitempty"`
}

// Unsupported is a kind an agent has no place for at a level.
const Unsupported = "unsupported"

// Doc is a's entry as documents show it.
func (a Agent) Doc() AgentDoc {
	d := AgentDoc{Name: a.Name, Display: a.Display, Provider: a.Provider, HomeVar: a.DirVar, HomeDir: a.DefaultDir, HomeSub: a.DirSub, XDGDir: a.XDGDir, WinDir: a.WindowsDir,
		User: levelDoc(a.UserFile, a.User), Project: levelDoc(a.ProjectFile, a.Project), Reads: []ReadDoc{},
		Limit: a.Limit, Scoping: a.Scoping, Trust: a.Trust, Hooks: a.Hooks, NPM: a.NPM, Verified: a.Verified, Sources: a.Docs}
	if d.Sources == nil {
		d.Sources = []string{}
	}
	for _, r := range a.Reads {
		d.Reads = append(d.Reads, ReadDoc(r))
	}
	return d
}

func levelDoc(file string, p Places) LevelDoc {
	place := func(pl Place) string {
		switch {
		case pl.Dir == "":
			return Unsupported
		case pl.Ext == "":
			return pl.Dir + "NAME/"
		case pl.Format == "":
			return pl.Dir + "NAME" + pl.Ext
		}
		return pl.Dir + "NAME" + pl.Ext + " (" + pl.Format + ")"
	}
	d := LevelDoc{Instructions: file, Rules: place(p.Rules), Skills: place(p.Skills), Commands: place(p.Commands), Subagents: place(p.Subagents)}
	if p.RulesInBlock {
		d.Rules = "in-block"
	}
	d.Permissions, d.MCP = govPlace(p.Permissions, p.PermFormat, p.PermNone), govPlace(p.MCP, p.MCPFormat, p.MCPNone)
	if file == "" && d.Rules == "in-block" {
		d.Rules = Unsupported
	}
	return d
}

// TableMarkdown is docs/agents.md: the table, generated (scripts/gen-agents-doc.sh).
func TableMarkdown(agents []Agent) string {
	var b strings.Builder
	b.WriteString("# Agents\n\n<!-- Generated from the agent table (core/agents/table*.go) by scripts/gen-agents-doc.sh; do not edit. -->\n\n")
	b.WriteString("Every fact charter holds about an agent is one entry of its table (SPEC §17): `charter agents` prints it, `--json` whole. ")
	b.WriteString("A place is relative to the agent's directory at user level and to the project root in a project; NAME is the item's name, ")
	b.WriteString("the format in brackets how the file is written; `in-block` means the rules are written out in charter's block of the instruction file; ")
	b.WriteString("`unsupported` means the agent has no place for that kind there, and apply reports the item so. ")
	b.WriteString("Reads are the files the agent loads in a project, its own and other agents' (scoped: a rule waits for its globs; imports: `@path` lines expanded): ")
	b.WriteString("apply places charter's block and rules so that each agent reads each once (docs/apply.md, placement).\n\n")
	b.WriteString("| agent | user level | project | reads in a project | verified |\n|---|---|---|---|---|\n")
	for _, a := range agents {
		d := a.Doc()
		fmt.Fprintf(&b, "| **%s** (`%s`) | %s | %s | %s | %s |\n", d.Display, d.Name, levelCell(d, d.User),
			levelCell(AgentDoc{}, d.Project), readsCell(d.Reads), d.Verified)
	}
	b.WriteString("\n## Each agent\n")
	for _, a := range agents {
		d := a.Doc()
		fmt.Fprintf(&b, "\n### %s (`%s`)\n\n", d.Display, d.Name)
		if d.Provider != "" {
			fmt.Fprintf(&b, "- agent-switch provider: `%s`\n", d.Provider)
		}
		if d.NPM != "" {
			fmt.Fprintf(&b, "- npm: `%s`\n", d.NPM)
		}
		if d.Limit > 0 {
			fmt.Fprintf(&b, "- limit: %d bytes of always-loaded instructions\n", d.Limit)
		}
		fmt.Fprintf(&b, "- scoping: %s\n- trust: %s\n", d.Scoping, d.Trust)
		if d.Hooks != "" {
			fmt.Fprintf(&b, "- Stop hook: charter's (%s protocol)\n", d.Hooks)
		}
		for _, l := range []struct{ name, perms, mcp string }{{"user", d.User.Permissions, d.User.MCP}, {"project", d.Project.Permissions, d.Project.MCP}} {
			if why, none := strings.CutPrefix(l.perms, Unsupported+": "); none {
				fmt.Fprintf(&b, "- no permission file (%s level): %s\n", l.name, why)
			}
			if why, none := strings.CutPrefix(l.mcp, Unsupported+": "); none {
				fmt.Fprintf(&b, "- no MCP file (%s level): %s\n", l.name, why)
			}
		}
		fmt.Fprintf(&b, "- verified: %s\n- sources: %s\n", d.Verified, strings.Join(d.Sources, ", "))
	}
	return b.String()
}

// levelCell is one level's places; d's home (the agent's user-level
// directory) first when it has one.
func levelCell(d AgentDoc, l LevelDoc) string {
	var parts []string
	if d.HomeDir != "" {
		home := "`~/" + d.HomeDir + "`"
		if d.XDGDir != "" {
			home = "`$" + XDGConfigVar + "/" + d.XDGDir + "`, else " + home
		}
		if d.HomeVar != "" {
			home = "`$" + strings.TrimSuffix(d.HomeVar+"/"+d.HomeSub, "/") + "`, else " + home
		}
		if d.WinDir != "" {
			home += " (on Windows `~/" + d.WinDir + "`)"
		}
		parts = append(parts, home)
	}
	if l.Instructions != "" {
		parts = append(parts, "instructions `"+l.Instructions+"`")
	}
	for _, k := range [][2]string{{"rules", l.Rules}, {"skills", l.Skills}, {"commands", l.Commands}, {"subagents", l.Subagents},
		{"permissions", l.Permissions}, {"MCP servers", l.MCP}} {
		if !strings.HasPrefix(k[1], Unsupported) {
			parts = append(parts, k[0]+" `"+k[1]+"`")
		}
	}
	if len(parts) == 0 {
		return "—"
	}
	return strings.Join(parts, "<br>")
}

// govPlace is a permission or server place as documents show it.
func govPlace(file, format, none string) string {
	switch {
	case file != "":
		return file + " (" + format + ")"
	case none != "":
		return Unsupported + ": " + none
	}
	return Unsupported
}

func readsCell(rs []ReadDoc) string {
	var out []string
	for _, r := range rs {
		s := "`" + r.Path + "`"
		if r.Scoped {
			s += " (scoped)"
		}
		if r.Imports {
			s += " (imports)"
		}
		out = append(out, s)
	}
	return strings.Join(out, ", ")
}
