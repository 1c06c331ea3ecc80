package server

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/dismiss"
	"github.com/agentkit/charter/core/profile"
	"github.com/agentkit/charter/core/settings"
)

// The hub in a real browser: Debian's chromium, driven through chromedp,
// against a real server on loopback. With CHARTER_SCREENSHOTS=DIR the test
// saves PNGs of the hub, the shared-write dialog and the wizard row, each
// in the light and the dark colour scheme.

const stepTimeout = 20 * time.Second

// hubEnv is a pinned machine with an active agent-switch profile.
type hubEnv struct {
	home  string
	sys   *core.System
	scope core.Scope
}

// newHubEnv pins HOME to a temporary directory and makes claude/work the
// active profile. root is a --config-root relative to HOME, or "" for the
// default root (so the scope is the profile's own).
func newHubEnv(t *testing.T, root string) *hubEnv {
	t.Helper()
	return newHubEnvWith(t, root, true)
}

// newHubEnvWith is newHubEnv, with or without the active profile.
func newHubEnvWith(t *testing.T, root string, withProfile bool) *hubEnv {
	t.Helper()
	var extra []string // PATH is empty: no agent-switch binary to find
	if withProfile {
		extra = append(extra, "CLAUDE_CONFIG_DIR="+filepath.Join("$HOME", ".agent-switch", "claude", "work", "config"))
	}
	m := coretest.New(t, coretest.Env(extra...))
	sys, home := m.Sys, m.Home
	var flag *string
	if root != "" {
		abs := filepath.Join(home, root)
		flag = &abs
	}
	sc, err := profile.ResolveScope(sys, flag)
	if err != nil {
		t.Fatal(err)
	}
	return &hubEnv{home: home, sys: sys, scope: sc}
}

// hubServer is a server of the env; stop ends it and waits.
type hubServer struct {
	*Server
	done   chan error
	cancel context.CancelFunc
}

func (e *hubEnv) start(t *testing.T) *hubServer {
	t.Helper()
	s, _ := openServer(t, e.sys, e.scope, "", 0)
	return serveHub(t, s)
}

// serveHub serves s until the test ends.
func serveHub(t *testing.T, s *Server) *hubServer {
	ctx, cancel := context.WithCancel(context.Background())
	h := &hubServer{Server: s, done: make(chan error, 1), cancel: cancel}
	go func() { h.done <- s.Serve(ctx) }()
	t.Cleanup(func() { h.stop(t) })
	return h
}

func (h *hubServer) stop(t *testing.T) {
	t.Helper()
	h.cancel()
	h.waitStopped(t, "stop")
}

// waitStopped waits for Serve to return; a second call returns at once.
func (h *hubServer) waitStopped(t *testing.T, why string) {
	t.Helper()
	select {
	case err, ok := <-h.done:
		if ok {
			close(h.done)
		}
		if err != nil {
			t.Errorf("serve: %v", err)
		}
	case <-time.After(stepTimeout):
		t.Fatalf("%s: the server did not stop", why)
	}
}

// configDir creates the profile's config directory, where the agent
// files of the profile go, and returns it.
func (e *hubEnv) configDir(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(e.home, ".agent-switch", "claude", "work", "config")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	return dir
}

func (e *hubEnv) read(t *testing.T) *settings.Snapshot {
	t.Helper()
	snap, err := settings.New(e.sys, e.scope).Read()
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

// A profile's hub: the banner names the profile, a save writes only the
// changed keys to the profile's file, a bad value is reported at its field,
// and the wizard's companion row copies, hides for good, and survives
// neither a reload nor a restart once dismissed.
func TestBrowserHub(t *testing.T) {
	p := newPage(t)
	e := newHubEnv(t, "")
	if e.scope.Kind != core.ScopeProfile {
		t.Fatalf("scope %+v, want a profile scope", e.scope)
	}
	srv := e.start(t)
	p.open(srv.HubURL())

	// The token left the address bar at once.
	if loc := js[string](p, `location.href`); strings.Contains(loc, "token") || loc != srv.URL() {
		t.Errorf("address bar %q, want %q", loc, srv.URL())
	}
	want := "Profile claude/work — changes here apply to this profile only"
	if got := p.text("#scope-title"); got != want {
		t.Errorf("banner %q, want %q", got, want)
	}
	if got := js[int](p, `document.querySelectorAll('.field').length`); got != len(settings.Keys()) {
		t.Errorf("%d fields, want one per key (%d)", got, len(settings.Keys()))
	}
	// Script and style come from files only: the CSP forbids anything inline.
	if n := js[int](p, `document.querySelectorAll('script:not([src]), style, [style]').length`); n != 0 {
		t.Errorf("%d inline scripts or styles", n)
	}
	// Every control has a label tied to it.
	if n := js[int](p, `[...document.querySelectorAll('.field input, .field select')].filter((c) => c.labels.length === 0).length`); n != 0 {
		t.Errorf("%d controls without a label", n)
	}
	// Nothing is set yet: no field tags its value "Default".
	if n := js[int](p, `[...document.querySelectorAll('.field-origin')].filter((o) => o.checkVisibility()).length`); n != 0 {
		t.Errorf("%d fields show an origin while every value is the default", n)
	}
	// A range is said once, from the schema's bounds.
	if got := p.text(`.field[data-key="commands.suggestions.max_options"] .field-desc`); strings.Count(got, "0 to 20") != 1 {
		t.Errorf("max_options description %q: the range belongs there exactly once", got)
	}
	// A budget names its unit beside the number, and a screen reader hears it.
	unit := `.field[data-key="cost.budget.daily"] .field-unit`
	if got := p.text(unit); got != "in your billing currency" {
		t.Errorf("budget unit %q", got)
	}
	if !js[bool](p, `(() => { const i = document.querySelector('.field[data-key="cost.budget.daily"] input');
		return i.getAttribute('aria-describedby').split(' ').includes(document.querySelector('`+unit+`').id); })()`) {
		t.Error("the budget's input is not described by its unit")
	}
	if p.visible(`.field[data-key="gates.coverage.min"] .field-unit`) {
		t.Error("a key without x-unit shows a unit")
	}
	// The profile's CLAUDE.md does not exist yet: it is not "outdated".
	p.wait("the agent files", claudeState+` === 'missing'`)
	if got := p.text(`#apply-targets [data-agent="claude"] .apply-state`); got != "Not written yet" {
		t.Errorf("a missing CLAUDE.md is labelled %q", got)
	}
	if got := p.text("#apply-status"); got != "2 files not written yet: their agents do not know these settings." {
		t.Errorf("panel status %q", got)
	}

	// Change four settings of four kinds and save. The switch is brought
	// clear of the sticky save bar first: a click lands where it is seen.
	js[chromedp.Void](p, `document.querySelector('.field[data-key="skills.autoload"] input.switch').scrollIntoView({ block: 'center', behavior: 'instant' })`)
	p.do(chromedp.Click(field("skills.autoload", "input.switch")))
	p.selectOption("rules.tier", "full")
	p.typeInto("commands.suggestions.confidence_floor", "0.85")
	p.do(chromedp.SendKeys(field("rules.disabled", "input"), "no-force-push"), enter)
	p.wait("the save bar to count the changes", `document.querySelector('#save-status').textContent === '4 unsaved changes'`)
	p.do(chromedp.Click(chromedp.ID("save")))
	p.wait("the save", `document.querySelector('#save-status').textContent === 'Saved 4 changes'`)

	snap := e.read(t)
	wantValues := map[string]string{
		"skills.autoload":                       "false",
		"rules.tier":                            "full",
		"commands.suggestions.confidence_floor": "0.85",
		"rules.disabled":                        "[no-force-push]",
		"gates.coverage.min":                    "0", // untouched: still the default
	}
	for k, v := range wantValues {
		if got := fmt.Sprint(snap.Values[k]); got != v {
			t.Errorf("%s = %s, want %s", k, got, v)
		}
	}
	file := settings.New(e.sys, e.scope).Path()
	if snap.Origins["rules.tier"] != file || snap.Origins["gates.coverage.min"] != settings.OriginDefault {
		t.Errorf("origins: %v", snap.Origins)
	}
	data, _ := os.ReadFile(file)
	if strings.Contains(string(data), "coverage") || !strings.Contains(string(data), "confidence_floor: 0.85") {
		t.Errorf("only the changed keys belong in %s:\n%s", file, data)
	}
	if got := p.text(`.field[data-key="rules.tier"] .field-origin`); got != "Set in settings.yaml" {
		t.Errorf("origin shown %q", got)
	}
	if got := js[string](p, `document.querySelector('.field[data-key="rules.tier"] .field-origin').title`); got != file {
		t.Errorf("origin path on hover %q, want %q", got, file)
	}
	// Only the four keys set in the file show where they come from.
	if n := js[int](p, `[...document.querySelectorAll('.field-origin')].filter((o) => o.checkVisibility()).length`); n != 4 {
		t.Errorf("%d fields show an origin, want the 4 set in the file", n)
	}
	p.shot("hub", fullPage)

	// A value out of range comes back as a 422 and shows at its field.
	p.typeInto("gates.coverage.min", "150")
	p.do(chromedp.Click(chromedp.ID("save")))
	p.wait("the problem at its field", `document.querySelector('.field[data-key="gates.coverage.min"] .field-error').checkVisibility()`)
	if msg := p.text(`.field[data-key="gates.coverage.min"] .field-error`); !strings.Contains(msg, "100") {
		t.Errorf("problem %q does not give the range", msg)
	}
	p.shot("problem", element(`section[aria-labelledby="sec-gates"]`))
	if got := js[string](p, `document.activeElement.closest('.field')?.dataset.key ?? ''`); got != "gates.coverage.min" {
		t.Errorf("focus on %q, want the bad field", got)
	}
	p.do(chromedp.Click(chromedp.ID("discard")))
	p.wait("the discard", `document.querySelector('#save-status').textContent === 'No unsaved changes'`)

	// Someone else changes the same key meanwhile: the save is refused
	// (412, per-key base) and the page offers to reload, which shows their
	// value. A change to another key would not have blocked it.
	if _, err := settings.New(e.sys, e.scope).Write(settings.Update{Set: map[string]any{"memory.cadence": "auto"}}); err != nil {
		t.Fatal(err)
	}
	p.selectOption("memory.cadence", "never")
	p.do(chromedp.Click(chromedp.ID("save")))
	p.wait("the offer to reload", `document.querySelector('#stale').checkVisibility()`)
	p.do(chromedp.Click(chromedp.ID("stale-reload")))
	p.wait("the reload", `!document.querySelector('#stale').checkVisibility()`)
	if got := js[string](p, `document.querySelector('.field[data-key="memory.cadence"] select').value`); got != "auto" {
		t.Errorf("after reload memory.cadence shows %q, want the other writer's auto", got)
	}
	if snap := e.read(t); snap.Values["memory.cadence"] != "auto" {
		t.Errorf("a stale save was written: memory.cadence = %v", snap.Values["memory.cadence"])
	}

	// Reset to default sends the key in "unset".
	p.do(chromedp.Click(field("rules.tier", ".field-reset")))
	p.do(chromedp.Click(chromedp.ID("save")))
	p.wait("the reset", `document.querySelector('#save-status').textContent === 'Saved 1 change'`)
	if snap := e.read(t); snap.Values["rules.tier"] != "balanced" || snap.Origins["rules.tier"] != settings.OriginDefault {
		t.Errorf("after reset: %v from %s", snap.Values["rules.tier"], snap.Origins["rules.tier"])
	}

	// The tabs work from the keyboard: arrows move, the panel follows.
	p.do(chromedp.Focus(chromedp.ID("tab-settings")), chromedp.KeyEvent(kb.ArrowRight))
	if got := js[string](p, `document.activeElement.id + ' ' + document.activeElement.getAttribute('aria-selected')`); got != "tab-content true" {
		t.Errorf("after ArrowRight: %q, want the Content tab focused and selected", got)
	}
	p.do(chromedp.KeyEvent(kb.ArrowRight))
	if got := js[string](p, `document.activeElement.id + ' ' + document.activeElement.getAttribute('aria-selected')`); got != "tab-setup true" {
		t.Errorf("after ArrowRight twice: %q, want the Setup tab focused and selected", got)
	}

	// The wizard: not installed, not dismissed, so the row applies; it is
	// on the first tab, and the Setup step only says where.
	if p.visible("#companion-row") || p.text("#tooling-status") != "The agent-switch row is on the Settings tab." {
		t.Errorf("Setup step: row visible %v, status %q", p.visible("#companion-row"), p.text("#tooling-status"))
	}
	p.do(chromedp.Click(chromedp.ID("tab-settings")))
	p.wait("the companion row", `document.querySelector('#companion-row').checkVisibility()`)
	cmd := core.CompanionInstallCommand
	if got := p.text("#install-command"); got != cmd {
		t.Errorf("install command %q, want %q", got, cmd)
	}
	if got := js[string](p, `document.querySelector('#companion-repo').href`); got != core.CompanionRepo {
		t.Errorf("repository link %q", got)
	}
	p.shot("wizard", element("#tool-list"))

	origin := strings.TrimSuffix(srv.URL(), "/")
	for _, name := range []string{"clipboard-read", "clipboard-write"} {
		if _, err := chromedp.CallBrowser(p.ctx, browser.SetPermission, browser.SetPermissionParams{
			Permission: &browser.PermissionDescriptor{Name: name}, Setting: browser.PermissionSettingGranted, Origin: origin,
		}); err != nil {
			t.Fatal(err)
		}
	}
	p.do(chromedp.Click(chromedp.ID("copy-command")))
	p.wait("the copy", `document.querySelector('#copy-status').textContent !== ''`)
	clip := js[string](p, `navigator.clipboard.readText().catch(() => '')`)
	sel := js[string](p, `window.getSelection().toString()`)
	if clip != cmd && !strings.Contains(sel, cmd) {
		t.Errorf("copy: clipboard %q, selection %q, want %q in either", clip, sel, cmd)
	}

	p.do(chromedp.Click(chromedp.ID("dismiss-companion")))
	p.wait("the row to go", `!document.querySelector('#companion-row').checkVisibility()`)
	if ok, err := dismiss.Dismissed(e.sys, core.CompanionRecommendationID); !ok || err != nil {
		t.Fatalf("dismissal not recorded: %v %v", ok, err)
	}

	// A reload keeps the token (sessionStorage) and the row stays hidden.
	p.do(chromedp.Reload())
	p.wait("the hub after reload", `document.body.dataset.ready === "true"`)
	if p.visible("#companion-row") {
		t.Error("the row is back after a reload")
	}

	// So does a new server, with a new token.
	srv.stop(t)
	srv = e.start(t)
	p.open(srv.HubURL())
	if p.visible("#companion-row") {
		t.Error("the row is back after a restart")
	}
	p.do(chromedp.Click(chromedp.ID("tab-setup")))
	if !strings.Contains(p.text("#tooling-status"), "Nothing to set up") {
		t.Errorf("tooling step says %q", p.text("#tooling-status"))
	}
}

// claudeState is the state the agent files panel shows for claude.
const claudeState = `document.querySelector('#apply-targets [data-agent="claude"]')?.dataset.state`
