package server

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/loaded"
	"github.com/agentkit/charter/core/profile"
)

// The content tab lists the project's rule with its origin and agents and
// the administrator's rule locked with the policy file named. Toggling the
// project rule at the project layer writes rules.disabled into the
// project's settings file; the project part of the agent files panel then
// shows its projected file to be removed, and Apply removes it. The
// preview shows a body full of markup as text.
func TestBrowserContent(t *testing.T) {
	p := newPage(t)
	m := coretest.New(t)
	repo := filepath.Join(m.Dir, "shop")
	body := "Run <b>gofmt</b>.\n<img src=x onerror=\"window.injected=1\">\n<script>window.injected=2</script>\n"
	coretest.WriteFile(t, filepath.Join(repo, ".charter", "settings.yaml"), "# the team's\nworktrees.mode: off\n")
	coretest.WriteFile(t, filepath.Join(repo, ".charter", "rules", "go-style.md"), "---\ndescription: How Go is written here\nglobs: [\"**/*.go\"]\n---\n"+body)
	coretest.WriteFile(t, filepath.Join(m.Dir, "rules", "mandated.md"), "---\ndescription: The law\n---\nObey.\n")
	root := filepath.Join(m.Home, "root")
	coretest.WriteFile(t, filepath.Join(root, "rules", "mine.md"), "---\ndescription: Mine\n---\nBe brief.\n")
	sc, err := profile.ResolveScope(m.Sys, &root)
	if err != nil {
		t.Fatal(err)
	}
	s, project := openServer(t, m.Sys, sc, repo, 0)
	h := serveHub(t, s)
	p.open(h.HubURL())

	// First the project's files: the rule reaches claude's rules folder.
	projected := filepath.Join(repo, ".claude", "rules", "go-style.md")
	file := `document.querySelector('#apply-project-files .apply-file[data-agent="claude"][data-item="go-style"]')?.dataset.state`
	p.wait("the rule's projected file", file+` === 'missing'`)
	if got := p.text(`#apply-project-files .apply-files-agent[data-agent="codex"] .apply-budget`); !strings.HasSuffix(got, "of 32.0 KiB always loaded") {
		t.Errorf("codex budget %q", got)
	}
	p.shot("content-apply-before", element("#apply-panel"))
	p.clickProjectApply()
	p.wait("the project write", file+` === 'written'`)
	if _, err := os.Stat(projected); err != nil {
		t.Fatalf("the rule was not projected: %v", err)
	}

	// Claude Code reports loading the projected rule (its
	// InstructionsLoaded hook, as in core/loaded's tests).
	payload := fmt.Sprintf(`{"session_id":"s1","transcript_path":"/t.jsonl","cwd":%q,"hook_event_name":"InstructionsLoaded","file_path":%q,"memory_type":"Project","load_reason":"path_glob_match"}`, repo, projected)
	in, err := loaded.ReadInput(strings.NewReader(payload))
	if err != nil {
		t.Fatal(err)
	}
	if err := loaded.Record(context.Background(), m.Sys, filepath.Join(sc.Path, "state"), "claude", in); err != nil {
		t.Fatal(err)
	}
	// The hub reads the content once, at load.
	p.do(chromedp.Reload())
	p.wait("the hub to be ready again", `document.body.dataset.ready === "true"`)

	// The content tab.
	p.do(chromedp.Click(chromedp.ID("tab-content")))
	row := `.content-row[data-kind="rule"][data-name="go-style"]`
	p.wait("the content list", `!!document.querySelector('`+row+`')`)
	if got := p.text(row + " .content-state"); got != "Active" {
		t.Errorf("go-style state %q", got)
	}
	facts := p.text(row + " .content-facts")
	for _, want := range []string{"From the project " + filepath.Join(repo, ".charter", "rules", "go-style.md"), "Tier balanced", "For **/*.go", "Agents: claude, codex, gemini, cursor, copilot"} {
		if !strings.Contains(facts, want) {
			t.Errorf("go-style facts %q lack %q", facts, want)
		}
	}
	if got := p.text(row + " .content-loaded"); !strings.HasPrefix(got, "Loaded by claude in the last session (") {
		t.Errorf("go-style loaded %q", got)
	}
	if got := p.text(`.content-row[data-name="mandated"] .content-loaded`); got != "Never loaded" {
		t.Errorf("mandated loaded %q", got)
	}
	// The policy's rule: no checkbox, the policy file named.
	locked := `.content-row[data-name="mandated"]`
	if js[bool](p, `!!document.querySelector('`+locked+` input')`) {
		t.Error("the policy rule has a toggle")
	}
	if got := p.text(locked + " .content-lock"); got != "Locked: required by "+m.PolicyFile {
		t.Errorf("policy lock %q", got)
	}
	if got := p.text(locked + " .content-state"); got != "Required by policy" {
		t.Errorf("policy state %q", got)
	}

	// The preview: the body as text, no markup run.
	p.do(chromedp.Click(chromedp.CSS(row + " .content-preview-btn")))
	p.wait("the preview", `!document.querySelector('#content-preview').hidden`)
	if got := js[string](p, `document.querySelector('#preview-body').textContent`); got != body {
		t.Errorf("preview body %q", got)
	}
	if js[bool](p, `document.querySelector('#content-preview img, #content-preview script, #content-preview b') !== null || window.injected !== undefined`) {
		t.Error("the preview rendered the body as markup")
	}
	if got := js[string](p, `document.activeElement.id`); got != "preview-title" {
		t.Errorf("focus after opening the preview: %q", got)
	}
	p.shot("content", fullPage)
	p.do(chromedp.Click(chromedp.ID("preview-close")))
	if got := js[string](p, `document.activeElement.className`); !strings.Contains(got, "content-preview-btn") {
		t.Errorf("focus after closing the preview: %q", got)
	}

	// A project rule's toggle writes the project's settings, which render
	// the project's files (the default: by level), with the keyboard.
	if got := p.text("#content-layer-file"); !strings.HasPrefix(got, "Project: toggles write "+project.SettingsPath()+"; This scope: ") {
		t.Errorf("layer file %q", got)
	}
	toggle := "content-toggle-rule-go-style"
	if got := p.text(`label[for="` + toggle + `"]`); got != "Disabled in project settings" {
		t.Errorf("toggle label %q", got)
	}
	if got := p.text(row + " .content-toggle-files"); got != "(the project's agent files change on the next apply --project)" {
		t.Errorf("toggle files %q", got)
	}
	p.do(chromedp.Focus(chromedp.ID(toggle)), chromedp.KeyEvent(" "))
	p.wait("the toggle's save", `document.querySelector('`+row+`')?.dataset.state === 'disabled'`)
	data, err := os.ReadFile(project.SettingsPath())
	if got := string(data); err != nil || !strings.Contains(got, "go-style") || !strings.Contains(got, "# the team's") {
		t.Errorf("project settings after the toggle (%v):\n%s", err, got)
	}
	if data, _ := os.ReadFile(filepath.Join(root, "settings.yaml")); strings.Contains(string(data), "go-style") {
		t.Errorf("the scope file was written:\n%s", data)
	}
	if !js[bool](p, `document.getElementById('`+toggle+`').checked`) || p.text(row+" .content-agents") != "No agent gets it" {
		t.Error("after the toggle the box is not checked or agents still get the rule")
	}
	if got := p.text("#content-status"); got != "go-style disabled in project settings: the project's agent files change on the next apply --project." {
		t.Errorf("status %q", got)
	}
	p.shot("content-disabled", element(row))

	// The next apply prunes the projected file.
	p.do(chromedp.Click(chromedp.ID("tab-settings")))
	p.wait("the file to be removed", file+` === 'pruned'`)
	if got := p.text(`#apply-project-files .apply-file[data-item="go-style"][data-agent="claude"] .apply-state`); got != "Will be removed" {
		t.Errorf("planned state %q", got)
	}
	p.shot("content-apply-prune", element("#apply-panel"))
	p.clickProjectApply()
	p.wait("the prune", `document.querySelector('#apply-project-status').textContent.startsWith('Applied')`)
	if _, err := os.Stat(projected); !os.IsNotExist(err) {
		t.Errorf("the disabled rule's file is still there: %v", err)
	}

	// Enabling it again at the same layer takes it out of the list.
	p.do(chromedp.Click(chromedp.ID("tab-content")))
	p.do(chromedp.Click(chromedp.ID(toggle)))
	p.wait("the rule back", `document.querySelector('`+row+`')?.dataset.state === 'active'`)
	if data, _ := os.ReadFile(project.SettingsPath()); strings.Contains(string(data), "go-style") {
		t.Errorf("project settings still name go-style:\n%s", data)
	}

	p.do(chromedp.Click(chromedp.ID("tab-settings")))
	p.wait("the rule's file due again", file+` === 'missing'`)
	p.clickProjectApply()
	p.wait("the rule written again", file+` === 'written'`)
	contentToggles(t, p, m, root, project.SettingsPath(), file)
}
