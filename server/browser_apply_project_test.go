package server

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/agentkit/charter/core/agents"
	"github.com/agentkit/charter/core/apply"
	"github.com/agentkit/charter/core/coretest"
)

// startProject serves the env's scope and the project at dir.
func (e *hubEnv) startProject(t *testing.T, dir string) *hubServer {
	t.Helper()
	s, _ := openServer(t, e.sys, e.scope, dir, 0)
	return serveHub(t, s)
}

// projectState is the state the project part shows for an agent's first row.
func projectState(agent string) string {
	return `document.querySelector('#apply-project-targets [data-agent="` + agent + `"]')?.dataset.state`
}

// clickProjectApply clicks the project part's button as a user does: the
// sticky save bar may cover it at the page's end, so it is scrolled clear.
func (p *page) clickProjectApply() {
	p.t.Helper()
	js[chromedp.Void](p, `document.querySelector('#apply-project').scrollIntoView({ block: 'center' })`)
	p.do(chromedp.Click(chromedp.ID("apply-project")))
}

// With a project served, the agent panel has a second part for the
// project's files: it lists cursor's rules file and copilot's instructions
// (and a test-only agent of the table), and its button writes them, with
// the project's settings, leaving the user-level files alone.
func TestBrowserApplyProject(t *testing.T) {
	p := newPage(t)
	e := newHubEnvWith(t, "", false)
	e.sys.AgentTable = append(agents.Default(), agents.Agent{Name: "zork", ProjectFile: "ZORK.md", Format: agents.FormatBlock})
	if err := os.MkdirAll(filepath.Join(e.home, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	repo := filepath.Join(filepath.Dir(e.home), "shop")
	mine := "# Gemini notes\n\nUse tabs.\n"
	coretest.WriteFile(t, filepath.Join(repo, ".charter", "settings.yaml"), "worktrees:\n  mode: on\n")
	coretest.WriteFile(t, filepath.Join(repo, "GEMINI.md"), mine)
	coretest.WriteFile(t, filepath.Join(repo, "ZORK.md"), "# Zork\n")
	if err := os.MkdirAll(filepath.Join(repo, ".cursor", "rules"), 0o755); err != nil {
		t.Fatal(err)
	}
	mdc := filepath.Join(repo, ".cursor", "rules", "charter.mdc")
	gemini := filepath.Join(repo, "GEMINI.md")
	srv := e.startProject(t, repo)
	p.open(srv.HubURL())

	// Cursor reads AGENTS.md, which serves it: its row says skipped, and
	// why (SPEC §12: each agent reads the block once).
	p.wait("the project's files", projectState("cursor")+` === 'skipped'`)
	if got := p.text("#apply-project-title"); got != "This project ("+repo+")" {
		t.Errorf("project part title %q", got)
	}
	if !p.visible("#apply-user-title") || !p.visible("#apply-project") {
		t.Error("with a project, the user part has no title or the project part no button")
	}
	agents := js[[]string](p, `[...document.querySelectorAll('#apply-project-targets .apply-row')].map((r) => r.dataset.agent)`)
	for _, want := range []string{"claude", "codex", "gemini", "cursor", "zork", apply.MCPTarget} {
		if !strings.Contains(" "+strings.Join(agents, " ")+" ", " "+want+" ") {
			t.Errorf("project rows %q lack %s", agents, want)
		}
	}
	if strings.Contains(strings.Join(agents, " "), "copilot") {
		t.Errorf("project rows %q list copilot, whose file is not in the project", agents)
	}
	if got := p.text(`#apply-project-targets [data-agent="cursor"] .apply-path`); got != mdc {
		t.Errorf("cursor's path %q, want %q", got, mdc)
	}
	if got := js[string](p, projectState("gemini")); got != "outdated" {
		t.Errorf("GEMINI.md exists without the block: %q, want outdated", got)
	}
	// The table's test-only entry is named by the panel, from the report.
	if got := p.text("#apply-agents"); got != "Agents charter knows: "+strings.Join(e.sys.AgentTable.Names(), ", ")+"." || !strings.HasSuffix(got, ", zork.") {
		t.Errorf("known agents %q", got)
	}
	// The user part lists only the user-level files.
	if got := js[[]string](p, `[...document.querySelectorAll('#apply-targets .apply-row')].map((r) => r.dataset.agent)`); strings.Contains(strings.Join(got, " "), "cursor") {
		t.Errorf("user rows %q", got)
	}
	p.shot("apply-project", element("#apply-panel"))

	rows := js[int](p, `document.querySelectorAll('#apply-project-targets .apply-row:not([data-state="skipped"])').length`)
	p.clickProjectApply()
	p.wait("the project write", projectState("zork")+` === 'written'`)
	if _, err := os.Stat(mdc); !os.IsNotExist(err) {
		t.Errorf("charter.mdc written though AGENTS.md serves Cursor: %v", err)
	}
	data, _ := os.ReadFile(gemini)
	if got := string(data); !strings.HasPrefix(got, mine+"\n"+apply.BeginMarker+"\n") || !strings.Contains(got, "for this project.") || !strings.Contains(got, "Worktrees: **on**") {
		t.Errorf("GEMINI.md after apply:\n%s", got)
	}
	if data, _ := os.ReadFile(filepath.Join(repo, "ZORK.md")); !strings.Contains(string(data), apply.BeginMarker) {
		t.Errorf("ZORK.md after apply:\n%s", data)
	}
	if got, want := p.text("#apply-project-status"), "Applied: "+files(rows)+" updated."; got != want {
		t.Errorf("project status %q, want %q", got, want)
	}
	if !js[bool](p, `document.querySelector('#apply-project').disabled`) {
		t.Error("nothing is left to apply in the project, yet its button is enabled")
	}
	// The user part was not applied.
	if _, err := os.Stat(filepath.Join(e.home, ".claude", "CLAUDE.md")); !os.IsNotExist(err) {
		t.Errorf("the project's Apply wrote the user-level CLAUDE.md: %v", err)
	}
	if got := js[string](p, claudeState); got != "missing" || js[bool](p, `document.querySelector('#apply').disabled`) {
		t.Errorf("user part: claude %q, or its button disabled", got)
	}
	p.shot("apply-project-done", element("#apply-panel"))

	// A fresh check finds the project's files current.
	p.do(chromedp.Reload())
	p.wait("the hub after reload", `document.body.dataset.ready === "true"`)
	if got := p.text("#apply-project-status"); got != "Every agent file is up to date." {
		t.Errorf("project status after reload %q", got)
	}
	if n := js[int](p, `document.querySelectorAll('#apply-project-targets [data-state="current"]').length`); n != rows {
		t.Errorf("%d of %d project rows current after reload", n, rows)
	}
}

// The project's copilot-instructions.md links to its AGENTS.md (an
// instruction file: the one kind of link a project target may be), and
// the project lies inside the companion tree, so the link is one
// agent-switch shares: the project part's Apply asks first with the same
// dialog. Cancel leaves the shared file alone and the link blocked; Write
// sends the project request again, confirmed, and writes through the link.
func TestBrowserApplyProjectShared(t *testing.T) {
	p := newPage(t)
	e := newHubEnvWith(t, "", false)
	repo := filepath.Join(e.home, ".agent-switch", "projects", "shop")
	// The link stays inside the project (one leading out is refused as
	// outside_project) but lies in the companion tree: a shared write.
	// AGENTS.md is a link to Copilot's file: one file, which Codex's row
	// writes (Copilot reads it: placement serves it from there).
	shared := filepath.Join(repo, ".github", "copilot-instructions.md")
	before := "# shared by every profile\n"
	coretest.WriteFile(t, filepath.Join(repo, ".charter", "settings.yaml"), "")
	coretest.WriteFile(t, shared, before)
	link := filepath.Join(repo, "AGENTS.md")
	if err := os.Symlink(filepath.Join(".github", "copilot-instructions.md"), link); err != nil {
		t.Skip("no symlinks here:", err)
	}
	srv := e.startProject(t, repo)
	p.open(srv.HubURL())
	p.wait("the project's files", projectState("codex")+` === 'outdated'`)
	if !p.visible(`#apply-project-targets [data-agent="codex"] .apply-shared`) {
		t.Error("the project part does not say the file is shared")
	}
	// No agent directory at user level: that part explains, the project's works.
	if !strings.HasPrefix(p.text("#apply-status"), "No agent directory found") {
		t.Errorf("user part says %q", p.text("#apply-status"))
	}

	p.clickProjectApply()
	p.sharedDialog(link)
	p.do(chromedp.Click(chromedp.ID("shared-cancel")))
	p.wait("the cancel note", `document.querySelector('#apply-project-status').textContent.startsWith('Not applied')`)
	if got := js[string](p, projectState("codex")); got != "blocked" {
		t.Errorf("codex is %q after Cancel, want blocked", got)
	}
	if got := js[string](p, `document.activeElement.id`); got != "apply-project" {
		t.Errorf("focus on %q after Cancel, want back on the project's apply button", got)
	}
	if got, _ := os.ReadFile(shared); string(got) != before {
		t.Errorf("Cancel changed the shared file:\n%s", got)
	}
	// Nothing else was written: apply decides the whole change set first.
	if data, err := os.ReadFile(filepath.Join(repo, "CLAUDE.md")); err == nil {
		t.Errorf("CLAUDE.md written before the shared link was confirmed:\n%s", data)
	}

	p.clickProjectApply()
	p.sharedDialog(link)
	p.do(chromedp.Click(chromedp.ID("shared-write")))
	p.wait("the confirmed write", projectState("codex")+` === 'written'`)
	got, _ := os.ReadFile(shared)
	if !strings.HasPrefix(string(got), before+"\n"+apply.BeginMarker+"\n") || !strings.Contains(string(got), "for this project.") {
		t.Errorf("not written through the link:\n%s", got)
	}
	if target, err := os.Readlink(link); err != nil || target != filepath.Join(".github", "copilot-instructions.md") {
		t.Errorf("link not intact: %q %v", target, err)
	}
}

// files is how the panel counts files.
func files(n int) string {
	if n == 1 {
		return "1 file"
	}
	return fmt.Sprintf("%d files", n)
}
