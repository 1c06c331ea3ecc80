package server

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/agentkit/charter/core/coretest"
)

// The content tab's "Permissions and MCP servers" card: the policy's deny
// shows as locked by policy with the policy file as its origin, a
// project's rule with its own file and no lock, and a server outside the
// policy's mcp.allowed as not projected, with why.
func TestBrowserGovernance(t *testing.T) {
	p := newPage(t)
	e := newHubEnvWith(t, "", false)
	policy := filepath.Join(filepath.Dir(e.home), "policy.yaml")
	coretest.WriteFile(t, policy, "permissions:\n  deny: [\"shell:git push --force\"]\nmcp:\n  allowed: [notes]\n")
	coretest.WriteFile(t, filepath.Join(e.scope.Path, "settings.yaml"), "mcp:\n  servers:\n    notes: {command: notes-mcp, args: [--stdio]}\n    other: {url: \"https://other.example.com/mcp\"}\n")
	repo := filepath.Join(filepath.Dir(e.home), "shop")
	projFile := filepath.Join(repo, ".charter", "settings.yaml")
	coretest.WriteFile(t, projFile, "permissions:\n  deny: [\"read:.env\"]\n  allow: [\"shell:go test\"]\n")
	srv := e.startProject(t, repo)
	p.open(srv.HubURL())
	p.do(chromedp.Click(chromedp.ID("tab-content")))
	locked := `#permissions-rows tr[data-rule="shell:git push --force"]`
	p.wait("the permissions card", `!!document.querySelector('`+locked+`')`)

	if got := js[string](p, `document.querySelector('`+locked+`').dataset.locked`); got != "true" {
		t.Errorf("the policy's deny: data-locked %q, want true", got)
	}
	for sel, w := range map[string]string{" .gov-verdict": "deny", " .gov-lock": "Locked by policy", " .gov-origin": policy} {
		if got := p.text(locked + sel); got != w {
			t.Errorf("the policy's deny%s = %q, want %q", sel, got, w)
		}
	}
	if got := p.text(locked + " .gov-layer"); !strings.HasPrefix(got, "The policy") {
		t.Errorf("the policy's deny comes from %q, want the policy", got)
	}
	env := `#permissions-rows tr[data-rule="read:.env"]`
	if got, lock := p.text(env+" .gov-layer"), p.text(env+" .gov-lock"); !strings.HasPrefix(got, "The project") || !strings.Contains(got, projFile) || lock != "" {
		t.Errorf("the project's deny: from %q, lock %q", got, lock)
	}
	order := js[string](p, `[...document.querySelectorAll('#permissions-rows tr')].map((r) => r.dataset.verdict + ' ' + r.dataset.rule).join(', ')`)
	if order != "deny shell:git push --force, deny read:.env, allow shell:go test" {
		t.Errorf("rules in the order %q, want the policy's deny first, then deny, then allow", order)
	}
	for name, w := range map[string]string{"notes": "Projected", "other": "Not projected: not in the policy’s mcp.allowed"} {
		if got := p.text(`#servers-rows tr[data-server="` + name + `"] .gov-state`); got != w {
			t.Errorf("server %s: %q, want %q", name, got, w)
		}
	}
	if got := p.text(`#servers-rows tr[data-server="notes"] .gov-what`); got != "notes-mcp --stdio" {
		t.Errorf("notes' command: %q", got)
	}
	if n := js[int](p, `document.querySelectorAll('#governance-panel button, #governance-panel input').length`); n != 0 {
		t.Errorf("the card has %d controls; it is read-only", n)
	}
	js[chromedp.Void](p, `document.querySelector('#governance-panel').scrollIntoView({ block: 'center' })`)
	p.shot("governance", element("#governance-panel"))
}
