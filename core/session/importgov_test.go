package session

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/importer"
	"github.com/agentkit/charter/core/settings"
)

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return string(data)
}

// govByNative indexes the import's report by native entry.
func govByNative(items []importer.GovItem) map[string]importer.GovItem {
	out := map[string]importer.GovItem{}
	for _, g := range items {
		out[g.Native] = g
	}
	return out
}

const claudeSettings = `{
  "permissions": {
    "deny": ["Bash(git push --force:*)", "Read(./.env)", "Bash(rm -rf /)", "WebFetch"],
    "ask": ["Edit(src/**)"],
    "allow": ["Bash(go test *)", "mcp__notes__search", "Bash(git push:*)"],
    "defaultMode": "acceptEdits"
  }
}`

const claudeMCP = `{"mcpServers": {
  "notes": {"command": "notes-mcp", "args": ["--stdio"], "env": {"NOTES_TOKEN": "ghp_abcdefghijklmnopqrstuvwxyz0123456789", "DEBUG": "1"}},
  "hub": {"type": "http", "url": "https://mcp.example.com/hub", "headers": {"Authorization": "Bearer sk-abcdefghijklmnop"}},
  "charter": {"command": "charter", "args": ["mcp"]},
  "odd": {"command": "x", "cwd": "/tmp"}
}}`

// TestImportGovernanceClaude: every native entry is imported in charter's
// grammar or reported with why not; a literal secret never reaches the
// settings file; an allow that would loosen the policy is left out; a
// second import finds everything in force already.
func TestImportGovernanceClaude(t *testing.T) {
	sys, home, repo := machine(t)
	writeFile(t, filepath.Join(filepath.Dir(home), "policy.yaml"), "permissions:\n  deny: [\"shell:git push\"]\n")
	writeFile(t, filepath.Join(repo, ".claude", "settings.json"), claudeSettings)
	writeFile(t, filepath.Join(repo, ".mcp.json"), claudeMCP)
	res, err := New(sys, Options{}).importSources(context.Background(), ImportRequest{From: "claude", Project: true})
	if err != nil {
		t.Fatal(err)
	}
	got := govByNative(res.Governance)
	want := map[string]string{ // native entry → state, charter rule or server
		"permissions.deny: Bash(git push --force:*)": "imported deny shell:git push --force",
		"permissions.deny: Read(./.env)":             "imported deny read:.env",
		"permissions.deny: Bash(rm -rf /)":           "skipped deny ",
		"permissions.deny: WebFetch":                 "imported deny web:*", // the whole tool: every domain
		"permissions.ask: Edit(src/**)":              "imported ask write:src/**",
		"permissions.allow: Bash(go test *)":         "imported allow shell:go test",
		"permissions.allow: mcp__notes__search":      "imported allow mcp:notes/search",
		"permissions.allow: Bash(git push:*)":        "skipped allow shell:git push",
		"permissions.defaultMode":                    "skipped  ",
		"mcpServers.notes":                           "imported notes",
		"mcpServers.hub":                             "imported hub",
		"mcpServers.charter":                         "skipped charter",
		"mcpServers.odd":                             "imported odd",
	}
	if len(got) != len(want) {
		t.Errorf("%d entries reported, want %d: %+v", len(got), len(want), res.Governance)
	}
	for native, w := range want {
		g, ok := got[native]
		s := g.State + " " + g.Verdict + " " + g.Rule
		if g.What == importer.WhatServer {
			s = g.State + " " + g.Server
		}
		if !ok || s != w {
			t.Errorf("%s: %q, want %q (%s)", native, s, w, g.Reason)
		}
		if ok && g.State == importer.StateSkipped && (g.Reason == "" || g.File == "") {
			t.Errorf("%s skipped without a reason or file: %+v", native, g)
		}
	}
	if r := got["permissions.allow: Bash(git push:*)"].Reason; !strings.Contains(r, "locked by policy") {
		t.Errorf("the allow that loosens the policy: %q", r)
	}
	if n := got["mcpServers.notes"].Notes; len(n) != 1 || !strings.Contains(n[0], "${NOTES_TOKEN}") {
		t.Errorf("notes' secret not reported: %v", n)
	}
	if n := got["mcpServers.odd"].Notes; len(n) != 1 || !strings.Contains(n[0], "cwd") {
		t.Errorf("odd's cwd not reported: %v", n)
	}
	file := readFile(t, filepath.Join(repo, ".charter", "settings.yaml"))
	for _, secret := range []string{"ghp_", "sk-abc"} {
		if strings.Contains(file, secret) {
			t.Errorf("a literal secret reached the settings file:\n%s", file)
		}
	}
	_, snap, err := New(sys, Options{}).Read()
	if err != nil {
		t.Fatalf("the settings import wrote do not read: %v\n%s", err, file)
	}
	servers := map[string]string{}
	for _, sv := range snap.Gov.Servers {
		servers[sv.Name] = sv.Env["NOTES_TOKEN"] + sv.Headers["Authorization"] + sv.Layer
	}
	if servers["notes"] != "${NOTES_TOKEN}project" || servers["hub"] != "Bearer ${AUTHORIZATION}project" || len(servers) != 3 {
		t.Errorf("servers read back: %v\n%s", servers, file)
	}
	if d := snap.Gov.Decide(mustRule(t, "shell:go test ./...")); d == nil || d.Verdict != "allow" {
		t.Errorf("go test after import: %+v", d)
	}

	again, err := New(sys, Options{}).importSources(context.Background(), ImportRequest{From: "claude", Project: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range again.Governance {
		if g.State == importer.StateImported {
			t.Errorf("imported twice: %+v", g)
		}
	}
	if after := readFile(t, filepath.Join(repo, ".charter", "settings.yaml")); after != file {
		t.Errorf("a second import changed the file:\n%s\nwas\n%s", after, file)
	}
}

// TestImportGovernanceGeminiUser: Gemini's tools lists and servers, into
// the scope's file, whose own bytes (a comment, a key) stay; a dry run
// writes nothing.
func TestImportGovernanceGeminiUser(t *testing.T) {
	sys, home, _ := machine(t)
	writeFile(t, filepath.Join(home, ".gemini", "settings.json"), `{
  "tools": {"exclude": ["run_shell_command(git push --force)", "write_file"], "allowed": ["run_shell_command(go test)"]},
  "mcpServers": {"docs": {"httpUrl": "https://docs.example.com/mcp", "trust": true}}
}`)
	s := New(sys, Options{})
	sc, err := s.Scope()
	if err != nil {
		t.Fatal(err)
	}
	scope := filepath.Join(sc.Path, "settings.yaml")
	own := "# mine\nrules:\n  tier: full   # keep\n"
	writeFile(t, scope, own)
	dry, err := New(sys, Options{}).importSources(context.Background(), ImportRequest{From: "gemini", DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if readFile(t, scope) != own || len(dry.Governance) != 4 {
		t.Fatalf("dry run: %+v\n%s", dry.Governance, readFile(t, scope))
	}
	res, err := New(sys, Options{}).importSources(context.Background(), ImportRequest{From: "gemini"})
	if err != nil {
		t.Fatal(err)
	}
	got := govByNative(res.Governance)
	if g := got["tools.exclude: run_shell_command(git push --force)"]; g.State != importer.StateImported || g.Rule != "shell:git push --force" || g.Verdict != "deny" {
		t.Errorf("exclude: %+v", g)
	}
	if g := got["tools.exclude: write_file"]; g.State != importer.StateSkipped || g.Reason == "" {
		t.Errorf("write_file: %+v", g)
	}
	if g := got["mcpServers.docs"]; g.State != importer.StateImported || len(g.Notes) != 1 || !strings.Contains(g.Notes[0], "trust") {
		t.Errorf("docs: %+v", g)
	}
	file := readFile(t, scope)
	if !strings.HasPrefix(file, "# mine\n") || !strings.Contains(file, "# keep") || !strings.Contains(file, "url: https://docs.example.com/mcp") {
		t.Errorf("the scope's file lost its own bytes or the server:\n%s", file)
	}
}

// TestImportGovernanceBadFile: a native file charter cannot parse stops
// the import before anything is written, naming the file.
func TestImportGovernanceBadFile(t *testing.T) {
	sys, _, repo := machine(t)
	writeFile(t, filepath.Join(repo, ".claude", "rules", "a.md"), "A rule.\n")
	writeFile(t, filepath.Join(repo, ".mcp.json"), `{"mcpServers": {"x": `)
	_, err := New(sys, Options{}).importSources(context.Background(), ImportRequest{From: "claude", Project: true})
	if err == nil || !strings.Contains(err.Error(), filepath.Join(repo, ".mcp.json")) || core.ErrorCode(err) != core.CodeMalformedSettings {
		t.Fatalf("err %v (%s)", err, core.ErrorCode(err))
	}
	if _, err := os.Stat(filepath.Join(repo, ".charter")); !os.IsNotExist(err) {
		t.Errorf("something was written: %v", err)
	}
}

// TestImportGovernanceVSCode: Copilot's .vscode/mcp.json servers, with
// ${env:VAR} in charter's ${VAR}, into a file that has an mcp key.
func TestImportGovernanceVSCode(t *testing.T) {
	sys, _, repo := machine(t)
	writeFile(t, filepath.Join(repo, ".vscode", "mcp.json"), `{"servers": {"gh": {"type": "http", "url": "https://api.example.com/mcp", "headers": {"Authorization": "Bearer ${env:GH_TOKEN}"}}}}`)
	writeFile(t, filepath.Join(repo, ".charter", "settings.yaml"), "mcp:\n  disabled: [old]   # retired\n")
	res, err := New(sys, Options{}).importSources(context.Background(), ImportRequest{From: "copilot", Project: true})
	if err != nil {
		t.Fatal(err)
	}
	if g := govByNative(res.Governance)["servers.gh"]; g.State != importer.StateImported || len(g.Notes) != 0 {
		t.Errorf("gh: %+v", g)
	}
	_, snap, err := New(sys, Options{}).Read()
	if err != nil {
		t.Fatal(err)
	}
	file := readFile(t, filepath.Join(repo, ".charter", "settings.yaml"))
	if len(snap.Gov.Servers) != 1 || snap.Gov.Servers[0].Headers["Authorization"] != "Bearer ${GH_TOKEN}" || !strings.Contains(file, "# retired") {
		t.Errorf("servers %+v\n%s", snap.Gov.Servers, file)
	}
}

func mustRule(t *testing.T, s string) settings.Rule {
	t.Helper()
	r, err := settings.ParseRule(s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
