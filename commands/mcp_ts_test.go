package commands

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/settings"
)

// TSSDKVar names the folder where .ci/run installed the official MCP
// TypeScript SDK (node_modules/@modelcontextprotocol/sdk inside it).
const TSSDKVar = "CHARTER_MCP_TS_SDK"

// tsClient is an MCP client built on the official TypeScript SDK. It lists
// the tools, calls each one (settings_get and settings_explain on every key
// in KEYS), and validates every structured result against the tool's output
// schema with Ajv (the SDK validates too, and rejects a tools/list whose
// schemas MCP does not allow). With ROOTS=error it announces the roots
// capability and answers roots/list with an error (no handler: "method not
// found"), as the clients of issue 25 did. It prints the status result.
// Each content kind's list and get run on one sample item of the scope.
const tsClient = `import { pathToFileURL } from "node:url";
const mods = process.env.SDK_DIR + "/node_modules/";
const load = (p) => import(pathToFileURL(mods + p).href);
const { Client } = await load("@modelcontextprotocol/sdk/dist/esm/client/index.js");
const { StdioClientTransport } = await load("@modelcontextprotocol/sdk/dist/esm/client/stdio.js");
const Ajv = (await load("ajv/dist/ajv.js")).default;
const ajv = new Ajv({ strict: false, allErrors: true });

const caps = process.env.ROOTS === "error" ? { roots: { listChanged: true } } : {};
const client = new Client({ name: "charter-ts-test", version: "1" }, { capabilities: caps });
await client.connect(new StdioClientTransport({
  command: process.env.CHARTER_BIN, args: ["mcp"], cwd: process.env.WORK_DIR, env: process.env, stderr: "inherit",
}));
const { tools } = await client.listTools();
const schemas = Object.fromEntries(tools.map((t) => [t.name, ajv.compile(t.outputSchema)]));
const calls = [["status", {}], ["gates_run", {}]];
for (const key of process.env.KEYS.split(",")) {
  calls.push(["settings_get", { key }], ["settings_explain", { key }]);
}
for (const [kind, plural] of [["rule", "rules"], ["skill", "skills"], ["command", "commands"], ["subagent", "subagents"]]) {
  calls.push([plural + "_list", {}], [kind + "_get", { name: "sample-" + kind }]);
}
calls.push(["rules_list", { path: "src/main.go" }]);
calls.push(["permissions_list", {}], ["permissions_check", { action: "shell:git push --force", agent: "claude" }], ["mcp_servers_list", {}]);
let status;
for (const [name, args] of calls) {
  const res = await client.callTool({ name, arguments: args });
  if (res.isError) throw new Error(name + " " + JSON.stringify(args) + ": " + JSON.stringify(res.content));
  if (!schemas[name](res.structuredContent)) {
    throw new Error(name + " " + JSON.stringify(args) + ": " + ajv.errorsText(schemas[name].errors));
  }
  if (name === "status") status = res.structuredContent;
}
console.log(JSON.stringify({ tools: tools.map((t) => t.name).sort(), calls: calls.length, status }));
await client.close();
`

// tsSDK is the folder holding the TypeScript SDK, and node. Under CI=true
// their absence fails the test: .ci/run installs them.
func tsSDK(t *testing.T) (dir, node string) {
	t.Helper()
	dir = os.Getenv(TSSDKVar)
	node, err := exec.LookPath("node")
	missing := ""
	switch {
	case err != nil:
		missing = "node is not on PATH"
	case dir == "":
		missing = TSSDKVar + " is not set"
	default:
		if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk", "package.json")); err != nil {
			missing = "no @modelcontextprotocol/sdk under " + dir
		}
	}
	if missing != "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true but the MCP TypeScript SDK client cannot run (%s): .ci/run installs it", missing)
		}
		t.Skipf("%s (install: npm install --prefix DIR @modelcontextprotocol/sdk, then %s=DIR)", missing, TSSDKVar)
	}
	return dir, node
}

// TestMCPTypeScriptClient drives the real binary with the official
// TypeScript SDK's client.
func TestMCPTypeScriptClient(t *testing.T) {
	sdk, node := tsSDK(t)
	bin := buildCharter(t)
	script := filepath.Join(t.TempDir(), "client.mjs")
	if err := os.WriteFile(script, []byte(tsClient), 0o600); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, k := range settings.Keys() {
		keys = append(keys, k.Name)
	}
	for _, roots := range []string{"none", "error"} {
		t.Run("roots="+roots, func(t *testing.T) {
			w := newWorld(t)
			writeSamples(t, w.root)
			// A watchdog, not a timing assertion: a hang fails instead of
			// holding the test run.
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, node, script)
			cmd.Dir = w.project
			cmd.Env = w.env("AGENTKIT_CONFIG_HOME="+w.root, "SDK_DIR="+sdk, "CHARTER_BIN="+bin,
				"WORK_DIR="+w.project, "ROOTS="+roots, "KEYS="+strings.Join(keys, ","))
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("TypeScript client: %v\nstdout: %s\nstderr: %s", err, stdout.String(), stderr.String())
			}
			var got struct {
				Tools  []string
				Calls  int
				Status struct{ WorkDir, WorkDirNote string }
			}
			if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
				t.Fatalf("client output %q: %v", stdout.String(), err)
			}
			if strings.Join(got.Tools, ",") != "command_get,commands_list,gates_run,mcp_servers_list,permissions_check,permissions_list,ping,rule_get,rules_list,settings_explain,settings_get,skill_get,skills_list,sources_list,status,subagent_get,subagents_list,trust" || got.Calls != 2+2*len(keys)+12 {
				t.Errorf("tools %v, calls %d", got.Tools, got.Calls)
			}
			if got.Status.WorkDir != w.project {
				t.Errorf("workDir %q, want charter's working directory %q", got.Status.WorkDir, w.project)
			}
			if (got.Status.WorkDirNote != "") != (roots == "error") {
				t.Errorf("roots=%s: workDirNote %q", roots, got.Status.WorkDirNote)
			}
		})
	}
}

// writeSamples writes one item of each kind, named sample-KIND, in dir's
// source folders.
func writeSamples(t *testing.T, dir string) {
	t.Helper()
	coretest.WriteFile(t, filepath.Join(dir, "rules", "sample-rule.md"), "---\ndescription: A rule\nglobs: [\"**/*.go\"]\n---\nBody.\n")
	coretest.WriteFile(t, filepath.Join(dir, "skills", "sample-skill", "SKILL.md"), "---\nname: sample-skill\ndescription: A skill\n---\nBody.\n")
	coretest.WriteFile(t, filepath.Join(dir, "commands", "sample-command.md"), "---\ndescription: A command\n---\nDo $ARGUMENTS.\n")
	coretest.WriteFile(t, filepath.Join(dir, "subagents", "sample-subagent.md"), "---\nname: sample-subagent\ndescription: A subagent\ntools: [Read]\n---\nBody.\n")
}
