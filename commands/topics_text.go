package commands

import (
	"fmt"
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/apply"
	"github.com/agentkit/charter/core/settings"
	"github.com/agentkit/charter/core/sources"
	"github.com/agentkit/charter/core/trust"
	"github.com/agentkit/charter/server"
)

// The texts of the help topics that are prose: files and layers. Names
// come from the constants the code uses, so a rename shows here.

func filesTopic() string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	t := func(rows ...[2]string) { table(&b, rows) }
	p("Every file and folder charter reads or writes. The config root is $HOME/.agentkit/charter,")
	p("or %s, or --config-root. The scope is the root itself, or with a profile of", core.ConfigHomeVar)
	p("agent-switch active under the default root <root>/profiles/<provider>/<profile>.")
	p("Under the config root charter writes files 0600 and folders 0700; in a project, files")
	p("0644 (less umask); an existing file keeps its mode.")
	p("")
	p("Config root and scope (written 0600, folders 0700):")
	t(
		[2]string{fmt.Sprintf("<root>/%s", settings.FileName), "global settings, under the default root with a profile active"},
		[2]string{fmt.Sprintf("<scope>/%s", settings.FileName), "this scope's settings (settings set, edit, the hub)"},
		[2]string{fmt.Sprintf("<scope>/%s", settings.SchemaFileName), "the settings' JSON Schema, for editors"},
		[2]string{fmt.Sprintf("<scope>/%s", server.DiscoveryName), "the running server: address and process (serve)"},
		[2]string{fmt.Sprintf("<scope>/%s", server.TokenName), "the running server's bearer token (serve; read by ping --server)"},
		[2]string{"<scope>/state/", fmt.Sprintf("server and gate state: %s, gates.log, gates-sessions/", server.OpenFile)},
		[2]string{"<scope>/state/projection.json", "the files apply projected at user level, with their sha256"},
		[2]string{"<root>/locks/", "lock files that keep two writers of one file apart"},
		[2]string{"$HOME/.agentkit/charter/dismissals.json", "dismissed recommendations (user-global; dismiss)"},
		[2]string{fmt.Sprintf("$HOME/.agentkit/charter/%s", trust.FileName), "project gate commands you trusted (user-global; trust)"},
		[2]string{fmt.Sprintf("<scope>/%s", sources.LockName), "the pins of the sources this scope declares (sources add --global)"},
	)
	p("")
	p("Shared sources' cache (0700; safe to delete, the next apply fetches again):")
	t(
		[2]string{"$XDG_CACHE_HOME/charter/sources/", "else ~/.cache/charter/sources/: per URL a bare git/, trees/COMMIT/ and fetched.json"},
	)
	p("")
	p("Content sources (read): rules/<name>.md, skills/<name>/SKILL.md, commands/<name>.md,")
	p("subagents/<name>.md beside each settings layer: <root>/, <scope>/, <project>/%s/ and the", core.ProjectDirName)
	p("folder that holds the policy file.")
	p("")
	p("Project (written 0644 less umask):")
	t(
		[2]string{fmt.Sprintf("<project>/%s/%s", core.ProjectDirName, core.ProjectFile), "the project's shared settings (settings set --project)"},
		[2]string{fmt.Sprintf("<project>/%s/%s", core.ProjectDirName, core.ProjectLocalFile), "personal settings, kept out of git (settings set --local)"},
		[2]string{fmt.Sprintf("<project>/%s/projection.lock", core.ProjectDirName), "the files apply --project projected (committed)"},
		[2]string{fmt.Sprintf("<project>/%s/%s", core.ProjectDirName, sources.LockName), "the pinned commit and tree of each source the project declares (committed)"},
	)
	p("")
	p("Agents' files (apply writes a managed block or whole files it records):")
	p("  instruction files: CLAUDE.md, AGENTS.md, GEMINI.md … in each agent's directory or the project")
	p("  Claude Code's %s (the Stop hook), Codex's %s, the project's %s", apply.HookFile, apply.CodexHookFile, apply.MCPFile)
	p("  rules, skills, commands and subagents in each agent's own folders")
	p("")
	p("Read only:")
	p("  the policy file: %s, else /etc/agentkit/charter/policy.yaml", core.PolicyFileVar)
	p("  the %s beside the policy file (its sources' pins; only sources update --policy writes it)", sources.LockName)
	p("  (macOS /Library/Application Support/agentkit/charter/policy.yaml, Windows %%ProgramData%%\\agentkit\\charter\\policy.yaml)")
	p("  agent-switch's home ($%s or ~/.agent-switch): its profiles and %s", core.CompanionHomeVar, core.CompanionStateFile)
	p("")
	p("`charter doctor` checks each of these; `charter settings path` prints this scope's settings file.")
	return b.String()
}

func layersTopic() string {
	return strings.Join([]string{
		"A setting's effective value comes from the highest layer that sets it, lowest first:",
		"",
		"  default        the schema's default (charter settings schema)",
		"  global         <root>/" + settings.FileName + ", only under the default root with a profile active",
		"  scope          <scope>/" + settings.FileName + " (charter settings set)",
		"  project        <project>/" + core.ProjectDirName + "/" + core.ProjectFile + ", committed (settings set --project)",
		"  projectLocal   <project>/" + core.ProjectDirName + "/" + core.ProjectLocalFile + ", personal (settings set --local)",
		"  policy         the policy file (" + core.PolicyFileVar + " or the system path): charter never writes it",
		"",
		"A layer whose file is absent is skipped. The policy's lock: gives a key its value whatever the",
		"other layers say; minimum: and maximum: bound numeric keys. Writing a locked key, or a value",
		"outside a bound, is refused with exit 2 (locked_by_policy).",
		"",
		"The project is --project-dir, else " + core.ProjectDirVar + ", else the nearest directory from the",
		"working directory upwards that holds " + core.ProjectDirName + "/" + core.ProjectFile + " or " + core.ProjectLocalFile + " ($HOME is never one).",
		"--no-project ignores the project layers.",
		"",
		"Rules, skills, commands and subagents layer the same way: an item of a higher layer replaces",
		"the lower one of the same kind and name.",
		"",
		"`charter settings list` shows each key's effective value and the file it came from;",
		"`charter settings get KEY --json` its origin.",
	}, "\n") + "\n"
}

// table prints rows in two aligned columns, indented.
func table(b *strings.Builder, rows [][2]string) {
	w := 0
	for _, r := range rows {
		w = max(w, len(r[0]))
	}
	for _, r := range rows {
		fmt.Fprintf(b, "  %-*s  %s\n", w, r[0], r[1])
	}
}
