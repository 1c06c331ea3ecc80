package server

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/agentkit/charter/core"
)

// The agent-switch row is on the first tab while it applies, and in no
// other place (SPEC §4: the only recommendation surface). "Don't show
// again" hides it; the Setup step's "Show the recommendation again" brings
// it back and takes the id out of dismissals.json. A source build's hub
// says so.
func TestBrowserRecommendation(t *testing.T) {
	p := newPage(t)
	e := newHubEnv(t, "")
	s, err := Open(Config{Sys: e.sys, Scope: e.scope, Version: "dev"})
	if err != nil {
		t.Fatal(err)
	}
	srv := serveHub(t, s)
	p.open(srv.HubURL())

	if got := p.text("#version"); got != "dev (built from source)" {
		t.Errorf("version %q, want dev (built from source)", got)
	}
	if got := js[string](p, `document.querySelector('[role="tab"][aria-selected="true"]').id`); got != "tab-settings" {
		t.Fatalf("first tab %q", got)
	}
	p.wait("the row on the first tab", `document.querySelector('#panel-settings #companion-row')?.checkVisibility() === true`)
	// One place only: one element holds the install command, one links the
	// repository, one row.
	cmd := core.CompanionInstallCommand
	if n := js[int](p, `[...document.querySelectorAll('body *')].filter((e) => [...e.childNodes].some((c) => c.nodeType === 3 && c.textContent.includes(`+jsString(cmd)+`))).length`); n != 1 {
		t.Errorf("%d elements show the install command, want 1", n)
	}
	if n := js[int](p, `document.querySelectorAll('a[href=`+jsString(core.CompanionRepo)+`], .tool-row').length`); n != 2 {
		t.Errorf("%d repository links and rows, want one of each", n)
	}
	p.do(chromedp.Click(chromedp.ID("tab-setup")))
	if p.visible("#undismiss-companion") || p.text("#tooling-status") != "The agent-switch row is on the Settings tab." {
		t.Errorf("Setup step before a dismissal: undo shown %v, status %q", p.visible("#undismiss-companion"), p.text("#tooling-status"))
	}

	// Don't show again: the row goes, the note says how to get it back.
	p.do(chromedp.Click(chromedp.ID("tab-settings")), chromedp.Click(chromedp.ID("dismiss-companion")))
	p.wait("the row to go", `!document.querySelector('#companion-row').checkVisibility()`)
	p.wait("the note", `document.activeElement.id === 'companion-note'`)
	if got := p.text("#companion-note"); !strings.Contains(got, "Setup can show it again") {
		t.Errorf("note %q", got)
	}
	if got := dismissedIDs(t, e); !slices.Contains(got, core.CompanionRecommendationID) {
		t.Fatalf("dismissals.json %v", got)
	}

	// Show the recommendation again, from the Setup step.
	p.do(chromedp.Click(chromedp.ID("tab-setup")))
	if got := p.text("#tooling-status"); got != "Nothing to set up: you hid the agent-switch recommendation." {
		t.Errorf("Setup step after the dismissal: %q", got)
	}
	p.do(chromedp.Click(chromedp.ID("undismiss-companion")))
	p.wait("the undo", `document.querySelector('#tooling-status').textContent.startsWith('Shown again')`)
	if p.visible("#undismiss-companion") || js[string](p, `document.activeElement.id`) != "tooling-status" {
		t.Errorf("after the undo: button shown %v, focus on %q", p.visible("#undismiss-companion"), js[string](p, `document.activeElement.id`))
	}
	if got := dismissedIDs(t, e); slices.Contains(got, core.CompanionRecommendationID) {
		t.Errorf("dismissals.json still has the id: %v", got)
	}
	p.do(chromedp.Click(chromedp.ID("tab-settings")))
	if !p.visible("#companion-row") || p.visible("#companion-note") {
		t.Errorf("Settings tab after the undo: row %v, note %v", p.visible("#companion-row"), p.visible("#companion-note"))
	}
	// And it stays back after a reload.
	p.do(chromedp.Reload())
	p.wait("the row after a reload", `document.body.dataset.ready === "true" && document.querySelector('#companion-row').checkVisibility()`)
}

// dismissedIDs reads the user-global dismissals file as it is on disk.
func dismissedIDs(t *testing.T, e *hubEnv) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(e.home, ".agentkit", "charter", "dismissals.json"))
	if err != nil {
		t.Fatal(err)
	}
	var f struct{ Dismissed []string }
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatalf("dismissals.json: %v\n%s", err, data)
	}
	return f.Dismissed
}

// jsString quotes s for a JavaScript expression.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
