package server

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/profile"
	"github.com/agentkit/charter/core/settings"
)

// axeSource is axe-core's axe.min.js, from CHARTER_AXE (.ci/run installs it
// pinned). Missing, the test fails under CI=true and is skipped elsewhere.
func axeSource(t *testing.T) string {
	t.Helper()
	path := os.Getenv("CHARTER_AXE")
	if path == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI=true but CHARTER_AXE is not set, so the hub's accessibility is unchecked: run .ci/run, which installs axe-core")
		}
		t.Skip("skipping the axe check: set CHARTER_AXE to axe-core's axe.min.js (npm install axe-core)")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("CHARTER_AXE: %v", err)
	}
	return string(data)
}

// axeViolation is the part of an axe-core result a failure names.
type axeViolation struct {
	ID    string `json:"id"`
	Help  string `json:"help"`
	Nodes []struct {
		Target []any `json:"target"`
	} `json:"nodes"`
}

// axe runs axe-core on the page as it is and fails for each violation.
func (p *page) axe(what string) {
	p.t.Helper()
	// axe checks every element: longer than one step of the other tests.
	// label-content-name-mismatch is experimental in axe, so asked for by
	// name; color-contrast never finished in headless Chromium here (past
	// 20 s on a page the other rules check in 3 s), so it is left out.
	ctx, cancel := context.WithTimeout(p.ctx, 5*stepTimeout)
	defer cancel()
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[string](`axe.run(document, {resultTypes: ['violations'], iframes: false, rules: {'color-contrast': {enabled: false}, 'label-content-name-mismatch': {enabled: true}}}).then((r) => JSON.stringify(r.violations))`, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("axe on %s: %v", what, err)
	}
	var vs []axeViolation
	if err := json.Unmarshal([]byte(raw), &vs); err != nil {
		p.t.Fatalf("axe on %s: %v", what, err)
	}
	for _, v := range vs {
		var where []string
		for _, n := range v.Nodes {
			b, _ := json.Marshal(n.Target)
			where = append(where, string(b))
		}
		p.t.Errorf("axe on %s: %s (%s) at %s", what, v.ID, v.Help, strings.Join(where, ", "))
	}
}

// The Settings tab (with a reset button and the gate run's card), the
// Content tab and the Setup tab have no axe-core violation: every button's
// name holds its visible text, every landmark is unique.
func TestBrowserAxe(t *testing.T) {
	src := axeSource(t)
	p := newPage(t)
	m := coretest.New(t)
	repo := filepath.Join(m.Dir, "shop")
	coretest.WriteFile(t, filepath.Join(repo, ".charter", "settings.yaml"), "gates.lint.required: false\n")
	coretest.WriteFile(t, filepath.Join(repo, ".charter", "rules", "go-style.md"), "---\ndescription: How Go is written here\n---\nRun gofmt.\n")
	root := filepath.Join(m.Home, "root")
	sc, err := profile.ResolveScope(m.Sys, &root)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := settings.New(m.Sys, sc).Write(settings.Update{Set: map[string]any{"rules.tier": "full", "gates.tests.command": "true"}}); err != nil {
		t.Fatal(err)
	}
	s, _ := openServer(t, m.Sys, sc, repo, 0)
	h := serveHub(t, s)
	p.open(h.HubURL())
	p.do(chromedp.Evaluate[chromedp.Void](src))

	p.wait("the reset button", `!!document.querySelector('.field[data-key="rules.tier"] .field-reset:not([hidden])')`)
	p.do(chromedp.Click(chromedp.ID("run-gates")))
	p.wait("the gate report", `!/^(Not run yet|Running)/.test(document.querySelector('#gate-status').textContent)`)
	p.axe("the Settings tab")

	p.do(chromedp.Click(chromedp.ID("tab-content")))
	p.wait("the content list", `!!document.querySelector('.content-row[data-name="go-style"]')`)
	p.axe("the Content tab")

	p.do(chromedp.Click(chromedp.ID("tab-setup")))
	p.wait("the setup tab", `!document.querySelector('#panel-setup').hidden`)
	p.axe("the Setup tab")
}
