package server

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/agentkit/charter/core/coretest"
)

// contentToggles goes on from TestBrowserContent with the project rule
// go-style applied: a user rule's toggle writes this scope's settings and
// says the user-level files change; the personal file, picked knowingly,
// takes the project rule and says no agent's files change, and the
// project's files stay current (what apply --project --check says); a
// policy lock on rules.disabled refuses the toggle, writing nothing.
func contentToggles(t *testing.T, p *page, m *coretest.Machine, root, projectFile, file string) {
	t.Helper()
	p.do(chromedp.Click(chromedp.ID("tab-content")))
	mine := `.content-row[data-name="mine"]`
	if got := p.text(mine + " .content-toggle-label"); got != "Disabled in this scope settings" {
		t.Errorf("user rule's toggle label %q", got)
	}
	p.do(chromedp.Click(chromedp.ID("content-toggle-rule-mine")))
	// The user-level files follow the scope's list alone: the hub shows
	// that, and says that here, where the project's rules.disabled (set
	// above) wins, the rule is still active.
	p.wait("the user rule's save", `document.querySelector('#content-status').textContent.startsWith('mine disabled')`)
	if got := p.text(mine + " .content-state"); got != "Disabled" {
		t.Errorf("the user rule shows %q after its scope toggle, want what the user-level files get, Disabled", got)
	}
	if got := p.text(mine + " .content-here"); !strings.HasPrefix(got, "Here: active") {
		t.Errorf("the user rule's state here reads %q", got)
	}
	if got := p.text(mine + " .content-agents"); got != "No agent gets it" {
		t.Errorf("the user rule's agents read %q", got)
	}
	if data, _ := os.ReadFile(filepath.Join(root, "settings.yaml")); !strings.Contains(string(data), "mine") {
		t.Errorf("the scope file does not name mine:\n%s", data)
	}
	if got := p.text("#content-status"); !strings.HasPrefix(got, "mine disabled in this scope settings: your user-level agent files change on the next apply.") {
		t.Errorf("status %q", got)
	}

	// The personal file, picked knowingly.
	p.do(chromedp.Click(chromedp.ID("content-layer-projectLocal")))
	row := `.content-row[data-name="go-style"]`
	if got := p.text(row + " .content-toggle-files"); got != "(no agent's files change: only what charter shows and answers in this checkout)" {
		t.Errorf("local toggle files %q", got)
	}
	p.do(chromedp.Click(chromedp.ID("content-toggle-rule-go-style")))
	p.wait("the local toggle", `document.querySelector('`+row+`')?.dataset.here === 'disabled'`)
	if got := p.text(row + " .content-state"); got != "Active" { // the project's files keep it
		t.Errorf("the project rule shows %q after a personal toggle, want Active", got)
	}
	local := filepath.Join(filepath.Dir(projectFile), "settings.local.yaml")
	if data, _ := os.ReadFile(local); !strings.Contains(string(data), "go-style") {
		t.Errorf("the local file does not name go-style:\n%s", data)
	}
	if data, _ := os.ReadFile(projectFile); strings.Contains(string(data), "go-style") {
		t.Errorf("the project file was written:\n%s", data)
	}
	p.do(chromedp.Click(chromedp.ID("tab-settings")))
	p.wait("the project's files still current", file+` === 'current'`)

	// A policy lock on rules.disabled: refused, nothing written.
	coretest.WriteFile(t, m.PolicyFile, "lock:\n  rules.disabled: [legacy]\n")
	before, _ := os.ReadFile(local)
	p.do(chromedp.Click(chromedp.ID("tab-content")))
	p.do(chromedp.Click(chromedp.ID("content-toggle-rule-go-style")))
	p.wait("the refusal", `document.querySelector('#content-status').textContent.startsWith('Not saved')`)
	if after, _ := os.ReadFile(local); string(after) != string(before) {
		t.Errorf("a locked toggle wrote:\n%s", after)
	}
}
