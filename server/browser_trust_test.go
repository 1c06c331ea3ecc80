package server

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/agentkit/charter/core/coretest"
)

// An untrusted project's gate command, one that would create a marker
// file, never runs from "Run gates": the card lists the exact command with
// its key and file, and runs it only after "Trust this project's commands".
func TestBrowserTrust(t *testing.T) {
	p := newPage(t)
	e := newHubEnvWith(t, "", false)
	repo := filepath.Join(filepath.Dir(e.home), "shop")
	marker := filepath.Join(repo, "ran")
	file := filepath.Join(repo, ".charter", "settings.yaml")
	// The hub's System has no PATH (no agent-switch to find), and gates see
	// that environment alone: name touch whole.
	touch, err := exec.LookPath("touch")
	if err != nil {
		t.Fatal(err)
	}
	command := touch + " " + marker
	coretest.WriteFile(t, file, "gates.tests.command: "+command+"\ngates.lint.required: false\n")
	srv := e.startProject(t, repo)
	p.open(srv.HubURL())

	if !p.visible("#trust-notice") || p.visible("#trust-ok") {
		t.Fatal("an untrusted project shows no trust notice")
	}
	if got := p.text("#trust-title"); got != "This project's commands are not trusted" {
		t.Errorf("notice title %q", got)
	}
	row := `#trust-values [data-key="gates.tests.command"]`
	if got := p.text(row + " .trust-command"); got != command {
		t.Errorf("the notice shows %q, want the exact command %q", got, command)
	}
	if got := p.text(row + " .trust-file"); got != "set in the project file "+file {
		t.Errorf("the notice names the file as %q", got)
	}
	if n := js[int](p, `document.querySelectorAll('#trust-values li').length`); n != 1 {
		t.Errorf("%d values listed, want 1", n)
	}
	if got := js[string](p, `document.querySelector('#trust-project').tagName`); got != "BUTTON" {
		t.Errorf("the trust control is a %s", got)
	}
	js[chromedp.Void](p, `document.querySelector('#gates-panel').scrollIntoView({ block: 'center' })`)
	p.shot("trust-untrusted", element("#gates-panel"))

	p.do(chromedp.Click(chromedp.ID("run-gates")))
	p.wait("the untrusted run", `document.querySelector('#gate-status').textContent.startsWith('Not run')`)
	if got := p.text(`#gate-results [data-gate="tests"] .apply-state`); got != "not trusted" {
		t.Errorf("tests row says %q", got)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("Run gates ran the untrusted command")
	}
	if !p.visible("#trust-notice") {
		t.Error("the notice went away after the untrusted run")
	}

	// Trusting by keyboard: focus the button and press Enter.
	js[chromedp.Void](p, `document.querySelector('#trust-project').focus()`)
	p.do(chromedp.KeyEvent("\r"))
	p.wait("the trust", `document.querySelector('#trust-ok').checkVisibility()`)
	if p.visible("#trust-notice") {
		t.Error("the notice stays after trusting")
	}
	if got := js[string](p, `document.activeElement.id`); got != "run-gates" {
		t.Errorf("focus on %q after trusting, want Run gates", got)
	}
	if p.visible("#gate-results") {
		t.Error("the untrusted run's rows stay after trusting")
	}
	p.shot("trust-trusted", element("#gates-panel"))

	p.do(chromedp.Click(chromedp.ID("run-gates")))
	p.wait("the trusted run", `document.querySelector('#gate-status').textContent === 'Every gate passed.'`)
	if _, err := os.Stat(marker); err != nil {
		t.Fatalf("after trusting, Run gates did not run the command: %v", err)
	}
}

// The command changes between showing and clicking: the click trusts
// nothing, the notice shows the new command, and it does not run.
func TestBrowserTrustChanged(t *testing.T) {
	p := newPage(t)
	e := newHubEnvWith(t, "", false)
	repo := filepath.Join(filepath.Dir(e.home), "shop")
	marker := filepath.Join(repo, "ran")
	file := filepath.Join(repo, ".charter", "settings.yaml")
	coretest.WriteFile(t, file, "gates.tests.command: echo harmless\ngates.lint.required: false\n")
	srv := e.startProject(t, repo)
	p.open(srv.HubURL())
	p.wait("the notice", `document.querySelector('#trust-notice').checkVisibility()`)

	changed := "touch " + marker + "\u202e"
	coretest.WriteFile(t, file, "gates.tests.command: \""+strings.ReplaceAll(changed, "\u202e", `\u202e`)+"\"\ngates.lint.required: false\n")
	js[chromedp.Void](p, `document.querySelector('#trust-project').scrollIntoView({ block: 'center' })`)
	p.do(chromedp.Click(chromedp.ID("trust-project")))
	p.wait("the refusal", `document.querySelector('#trust-status').textContent.startsWith('Not trusted: the commands changed')`)
	// The bidi override is shown escaped, never applied.
	if got, want := p.text(`#trust-values [data-key="gates.tests.command"] .trust-command`), `"touch `+marker+`\u202e"`; got != want {
		t.Errorf("the notice shows %q, want %q", got, want)
	}
	if got := js[string](p, `document.activeElement.id`); got != "trust-title" {
		t.Errorf("focus on %q after the refusal, want the notice's title", got)
	}
	if p.visible("#trust-ok") {
		t.Error("the refused trust shows as trusted")
	}
	p.do(chromedp.Click(chromedp.ID("run-gates")))
	p.wait("the run", `document.querySelector('#gate-status').textContent.startsWith('Not run')`)
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the changed command ran")
	}
}
