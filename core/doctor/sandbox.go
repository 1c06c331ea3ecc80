package doctor

import (
	"fmt"
	"slices"

	"github.com/agentkit/charter/core/apply"
	"github.com/agentkit/charter/core/fsys"
	"github.com/agentkit/charter/core/profile"
	"github.com/agentkit/charter/core/settings"
	"github.com/agentkit/charter/core/tomledit"
)

// codexSandbox: a policy deny of web:* reaches Codex as [sandbox_workspace_write]
// network_access = false, which holds in the workspace-write sandbox
// only. A config.toml of a level apply writes for that turns the sandbox
// off (sandbox_mode = "danger-full-access") or still opens the network
// (network_access = true: not applied yet, or inline) fails. One that picks a permission profile (default_permissions)
// without a sandbox_mode makes Codex ignore the table: a warning, as the
// profile may keep the network off itself.
func codexSandbox(r *run) []Check {
	const name, label = "codex-sandbox", "Codex network"
	denied := slices.ContainsFunc(r.policy.PolicyRules("deny"), func(s string) bool {
		rule, err := settings.ParseRule(s)
		return err == nil && rule.Kind == settings.RuleWeb && rule.Arg == settings.WebEvery
	})
	a, known := r.Sys.AgentTable.Lookup("codex")
	if !denied || !known {
		return nil
	}
	var out []Check
	look := func(full *apply.Full, level, root string) {
		if full == nil || !slices.ContainsFunc(full.Targets, func(t apply.Target) bool { return t.Agent == a.Name }) {
			return
		}
		dir := root
		if root == "" {
			d, err := profile.AgentDir(r.Sys, a)
			if err != nil {
				return
			}
			dir = d
		}
		path := apply.MCPPath(r.Sys, a, level, dir)
		data, err := r.Sys.ReadWithin(root, path, fsys.KindSettings)
		if err != nil || data == nil {
			return // an unreadable or malformed file has its line under MCP servers allowed
		}
		doc, err := tomledit.Open(data)
		if err != nil {
			return
		}
		mode, _ := doc.Lookup("sandbox_mode").(string)
		id := name + ":" + level
		switch {
		case mode == "danger-full-access":
			out = append(out, fail(id, label+" ("+level+")",
				fmt.Sprintf("%s sets sandbox_mode = \"danger-full-access\": Codex runs commands with no sandbox, so the policy's deny of web:* (network_access = false) does not hold there", path),
				fmt.Sprintf("set sandbox_mode = \"workspace-write\" (or \"read-only\") in %s; do not run Codex with --dangerously-bypass-approvals-and-sandbox", path)))
		case doc.Lookup("sandbox_workspace_write", "network_access") == true:
			out = append(out, fail(id, label+" ("+level+")",
				fmt.Sprintf("%s sets network_access = true in [sandbox_workspace_write]: the policy's deny of web:* does not hold there", path),
				"run `charter apply` for Codex (a table written inline or as dotted keys it leaves: write it as a [sandbox_workspace_write] table, or set network_access = false there)"))
		case mode == "" && doc.Lookup("default_permissions") != nil:
			out = append(out, warn(id, label+" ("+level+")",
				fmt.Sprintf("%s picks a permission profile (default_permissions) and no sandbox_mode: Codex then ignores [sandbox_workspace_write], so its network_access = false does not decide; the profile's network settings do", path),
				fmt.Sprintf("keep the network off in that profile, or set sandbox_mode = \"workspace-write\" in %s", path)))
		}
	}
	if full, err := r.plan(); err == nil {
		look(full, apply.LevelUser, "")
	}
	if r.project != nil {
		look(r.projectFull, apply.LevelProject, r.project.Dir)
	}
	if len(out) == 0 {
		return []Check{ok(name, label, "the policy's deny of web:* is Codex's network_access = false, and no config.toml apply writes turns the sandbox off")}
	}
	return out
}
