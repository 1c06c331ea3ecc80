package server

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"

	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/settings"
)

// The gate commands and the timeout are edited as text; "Run gates" runs
// them and shows a failing gate's reason and last lines.
func TestBrowserGates(t *testing.T) {
	p := newPage(t)
	e := newHubEnv(t, "")
	proj := t.TempDir()
	e.sys.Getwd = func() (string, error) { return proj, nil }
	if _, err := settings.New(e.sys, e.scope).Write(settings.Update{Set: map[string]any{
		"gates.tests.command": "echo 'FAIL: TestTotal'; exit 1", "gates.lint.required": false}}); err != nil {
		t.Fatal(err)
	}
	srv := e.start(t)
	p.open(srv.HubURL())
	p.wait("the form", `document.querySelector('.field[data-key="gates.timeout"] input') !== null`)

	p.typeInto("gates.timeout", "90s")
	p.do(chromedp.Click(chromedp.ID("save")))
	p.wait("the save", `document.querySelector('#save-status').textContent === 'Saved 1 change'`)
	if v := e.read(t).Values["gates.timeout"]; v != "1m30s" {
		t.Errorf("gates.timeout saved as %v, want 1m30s", v)
	}

	p.do(chromedp.Click(chromedp.ID("run-gates")))
	p.wait("the gate report", `document.querySelector('#gate-status').textContent === 'Failing: tests.'`)
	if got := p.text(`#gate-results [data-gate="tests"] .apply-state`); got != "failed" {
		t.Errorf("tests row says %q", got)
	}
	if got := p.text("#gate-results .gate-tail"); !strings.Contains(got, "FAIL: TestTotal") {
		t.Errorf("output tail %q", got)
	}
	if got := p.text("#gate-results .gate-message"); got != "exit code 1" {
		t.Errorf("message %q", got)
	}
}

// A required gate without a command says so in the card; the tests gate
// shows the line that sets the command the project's go.mod suggests, to
// copy. Once a command is saved, its line goes.
func TestBrowserGateSuggestion(t *testing.T) {
	p := newPage(t)
	e := newHubEnv(t, "")
	proj := t.TempDir()
	coretest.WriteFile(t, filepath.Join(proj, "go.mod"), "module x\n")
	e.sys.Getwd = func() (string, error) { return proj, nil }
	srv := e.start(t)
	p.open(srv.HubURL())

	const set = "charter settings set --project gates.tests.command 'go test ./...'"
	tests := `#gate-hints [data-gate="tests"]`
	if got := p.text(tests + " .gate-suggestion"); got != set {
		t.Errorf("suggestion %q, want %q", got, set)
	}
	if got := p.text(tests + " .field-desc"); got != "No test command is configured (gates.tests.command is empty), so Run gates skips tests. go.mod suggests:" {
		t.Errorf("tests line %q", got)
	}
	if got := p.text(`#gate-hints [data-gate="lint"]`); got != "No lint command is configured (gates.lint.command is empty), so Run gates skips lint." {
		t.Errorf("lint line %q", got)
	}
	origin := strings.TrimSuffix(srv.URL(), "/")
	for _, name := range []string{"clipboard-read", "clipboard-write"} {
		if _, err := chromedp.CallBrowser(p.ctx, browser.SetPermission, browser.SetPermissionParams{
			Permission: &browser.PermissionDescriptor{Name: name}, Setting: browser.PermissionSettingGranted, Origin: origin,
		}); err != nil {
			t.Fatal(err)
		}
	}
	js[chromedp.Void](p, `document.querySelector('`+tests+` button').scrollIntoView({ block: 'center', behavior: 'instant' })`)
	p.do(chromedp.Click(chromedp.CSS(tests + " button")))
	p.wait("the copy", `document.querySelector('`+tests+` .copy-status').textContent !== ''`)
	clip := js[string](p, `navigator.clipboard.readText().catch(() => '')`)
	sel := js[string](p, `window.getSelection().toString()`)
	if clip != set && !strings.Contains(sel, set) {
		t.Errorf("copy: clipboard %q, selection %q, want %q in either", clip, sel, set)
	}

	p.typeInto("gates.tests.command", "go test ./...")
	p.do(chromedp.Click(chromedp.ID("save")))
	p.wait("the save", `document.querySelector('#save-status').textContent === 'Saved 1 change'`)
	p.wait("the tests line to go", `document.querySelector('`+tests+`') === null`)
	if !p.visible(`#gate-hints [data-gate="lint"]`) {
		t.Error("the lint line went too")
	}
}
