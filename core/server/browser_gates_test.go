package server

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

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
