package apply

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/profile"
	"github.com/agentkit/charter/core/project"
	"github.com/agentkit/charter/core/settings"
)

// One permissions and servers set: the policy's denies, ask and servers,
// each level's own allow.
const (
	govPolicy = `permissions:
  deny: ["shell:git push --force", "read:.env"]
  ask: ["shell:git push"]
mcp:
  servers:
    notes: {command: notes-mcp, args: [--stdio], env: {NOTES_TOKEN: "${NOTES_TOKEN}"}}
    github: {url: "https://mcp.example.com/github", headers: {Authorization: "Bearer ${GITHUB_TOKEN}"}}
`
	govLayer = "permissions:\n  allow: [\"shell:go\", \"write:src/**\"]\n"
)

// The user's own native files, at each level: their keys, entries,
// comments, order and spacing, which every apply keeps byte for byte.
var govNative = map[string]map[string]string{
	LevelUser: {
		".claude/settings.json":      "{\n    \"model\": \"opus\",\n    \"permissions\": {\"allow\": [\"Bash(npm run lint)\"], \"defaultMode\": \"acceptEdits\"},\n    \"env\": {\"FOO\": \"1\"}\n}\n",
		".claude.json":               "{\"numStartups\": 7, \"mcpServers\": {\"mine\": {\"type\": \"stdio\", \"command\": \"my-mcp\", \"args\": []}}, \"projects\": {\"/src\": {\"allowedTools\": []}}}\n",
		".codex/config.toml":         "# my Codex\nmodel = \"o3\"   # fast\n\n[mcp_servers.mine]\ncommand = \"my-mcp\"\n\n# profiles below\n[profiles.deep]\nmodel = \"o3-pro\"\n",
		".codex/rules/default.rules": "prefix_rule(pattern = [\"ls\"])\n",
		".gemini/settings.json":      "{\n\t\"theme\": \"dark\",\n\t\"tools\": {\"exclude\": [\"web_fetch\"]}\n}\n",
		".cursor/cli-config.json":    "{\n  \"version\": 1,\n  \"editor\": {\"vimMode\": false},\n  \"permissions\": {\"allow\": [\"Shell(ls)\"], \"deny\": []}\n}\n",
		".copilot/mcp-config.json":   "{\n  \"mcpServers\": {\n    \"mine\": {\"type\": \"local\", \"command\": \"my-mcp\", \"tools\": [\"*\"]}\n  },\n  \"trusted\": 1\n}\n",
	},
	LevelProject: {
		".claude/settings.json": "{\n  \"permissions\": {\n    \"deny\": [\"Read(secrets/**)\"]\n  }\n}\n",
		".mcp.json":             "{\n  \"mcpServers\": {\n    \"team\": {\"command\": \"team-mcp\"}\n  }\n}\n",
		".codex/config.toml":    "# project Codex\n[mcp_servers.team]\ncommand = \"team-mcp\"\nargs = [\n  \"--x\", # why\n]\n",
		".gemini/settings.json": "{\"mcpServers\": {\"team\": {\"command\": \"team-mcp\"}}}\n",
		".cursor/cli.json":      "{ \"permissions\": { \"allow\": [\"Shell(ls)\"], \"deny\": [] } }\n",
		".cursor/mcp.json":      "{\n  \"mcpServers\": {\n    \"team\": {\"command\": \"team-mcp\"}\n  }\n}\n",
		".vscode/mcp.json":      "{\n  \"inputs\": [],\n  \"servers\": {\n    // ours\n    \"team\": {\"type\": \"stdio\", \"command\": \"team-mcp\"} /* keep */\n  }\n}\n",
	},
}

// govAgents are the agents of the goldens (at both levels).
func govAgents() []string {
	return []string{"claude", "codex", "gemini", "cursor", "copilot"}
}

// govRequest: the project's agents by name; at user level every agent
// (Cursor has no instruction file there, only its CLI's permissions and
// servers, which `--agent all` takes while ~/.cursor exists).
func govRequest(proj *core.Project) Request {
	if proj == nil {
		return Request{Agents: []string{All}}
	}
	return Request{Agents: govAgents(), Project: proj}
}

// govSetup is a machine with the policy, the layer's allow and the user's
// native files; base is where the native files' paths start. opts add to
// the machine's environment.
func govSetup(t *testing.T, level string, opts ...coretest.Option) (*core.System, *settings.Snapshot, *core.Project, string) {
	t.Helper()
	return layerSetup(t, level, govPolicy, govLayer, govNative[level], opts...)
}

// layerSetup is a system with policy as the administrator's file, layer
// as the settings at level (the project's committed file at project
// level) and native as files of the agents below the level's base.
func layerSetup(t *testing.T, level, policy, layer string, native map[string]string, opts ...coretest.Option) (*core.System, *settings.Snapshot, *core.Project, string) {
	t.Helper()
	cm := coretest.New(t, opts...)
	coretest.WriteFile(t, cm.PolicyFile, policy)
	sc, err := profile.ResolveScope(cm.Sys, nil)
	if err != nil {
		t.Fatal(err)
	}
	base := cm.Home
	var proj *core.Project
	if level == LevelProject {
		base = filepath.Join(cm.Home, "src", "shop")
		coretest.WriteFile(t, filepath.Join(base, ".charter", "settings.yaml"), layer)
		if proj, err = project.Find(cm.Sys, &base, false); err != nil {
			t.Fatal(err)
		}
	} else {
		coretest.WriteFile(t, filepath.Join(sc.Path, "settings.yaml"), layer)
	}
	for rel, data := range native {
		coretest.WriteFile(t, filepath.Join(base, filepath.FromSlash(rel)), data)
	}
	pol, err := settings.LoadPolicy(cm.Sys)
	if err != nil {
		t.Fatal(err)
	}
	st := settings.Open(cm.Sys, sc, proj, pol)
	if proj != nil {
		st = st.Committed()
	}
	snap, err := st.Read()
	if err != nil {
		t.Fatal(err)
	}
	return cm.Sys, snap, proj, base
}

func govRun(t *testing.T, sys *core.System, snap *settings.Snapshot, proj *core.Project) *Full {
	t.Helper()
	full, err := PlanAll(context.Background(), sys, snap, govRequest(proj))
	if err != nil {
		t.Fatal(err)
	}
	govRunFull(t, sys, full)
	return full
}

func govRunFull(t *testing.T, sys *core.System, full *Full) {
	t.Helper()
	if _, err := RunAll(context.Background(), sys, full, false); err != nil {
		t.Fatal(err)
	}
}

// Golden projections per agent at both levels, from native files that
// already hold the user's own keys, entries, comments and order: those
// are kept byte for byte (the goldens show them around charter's
// entries); a second apply changes nothing; uninstall gives back every
// native file as it was.
func TestGovGoldens(t *testing.T) {
	for _, level := range []string{LevelUser, LevelProject} {
		t.Run(level, func(t *testing.T) {
			sys, snap, proj, base := govSetup(t, level)
			full := govRun(t, sys, snap, proj)
			if level == LevelUser {
				// The record is charter's own state under the config root.
				fi, err := os.Stat(filepath.Join(snap.Scope.Path, GovStateFile))
				if err != nil || (runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600) {
					t.Errorf("the user-level record: %v %v, want mode 0600", fi, err)
				}
			}
			govRound(t, sys, snap, proj, base, level, govRequest(proj), full, govAgents(), govNative[level])
			for _, rel := range []string{".codex/rules/charter.rules", ".gemini/policies/charter.toml", ".charter/governance.lock", ".vscode/settings.json"} {
				if _, err := os.Stat(filepath.Join(base, rel)); err == nil {
					t.Errorf("%s is still there after uninstall", rel)
				}
			}
		})
	}
}
