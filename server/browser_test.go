package server

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/discovery"
	"github.com/agentkit/charter/core/dismiss"
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
func newHubEnvWith(t *testing.T, root string, profile bool) *hubEnv {
	t.Helper()
	var extra []string // PATH is empty: no agent-switch binary to find
	if profile {
		extra = append(extra, "CLAUDE_CONFIG_DIR="+filepath.Join("$HOME", ".agent-switch", "claude", "work", "config"))
	}
	m := coretest.New(t, coretest.Env(extra...))
	sys, home := m.Sys, m.Home
	var flag *string
	if root != "" {
		abs := filepath.Join(home, root)
		flag = &abs
	}
	sc, err := sys.ResolveScope(flag)
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

// page is one browser tab.
type page struct {
	t     *testing.T
	ctx   context.Context
	shots string // CHARTER_SCREENSHOTS, or ""

	mu       sync.Mutex
	problems []string // console errors and uncaught exceptions
}

// chromium finds Debian's chromium.
func chromium() (string, error) {
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium", nil
	}
	return "", errors.New("no chromium on PATH or at /usr/bin/chromium")
}

// noBrowser fails in CI, where the browser test must run, and skips elsewhere.
func noBrowser(t *testing.T, err error) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("CI=true but chromium cannot be started, so the hub is untested: %v", err)
	}
	t.Skipf("skipping the browser test: chromium cannot be started (install it: apt-get install chromium): %v", err)
}

// newPage starts a headless chromium with a fresh profile.
func newPage(t *testing.T) *page {
	t.Helper()
	path, err := chromium()
	if err != nil {
		noBrowser(t, err)
	}
	profile, err := os.MkdirTemp("", "charter-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(profile) })
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(1200, 900),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelAlloc)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(cancel)
	if err := chromedp.Do(ctx); err != nil { // starts the browser, with no timeout
		noBrowser(t, err)
	}
	p := &page{t: t, ctx: ctx, shots: os.Getenv("CHARTER_SCREENSHOTS")}
	messages := chromedp.Console(ctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			// An API error status is part of the flow (409, 422); any other
			// failed request, a CSP violation or a script error is a bug.
			api := m.Source == "network" && strings.Contains(m.URL, "/api/v1/")
			if (m.Type == chromedp.ConsoleError || m.IsException()) && !api {
				p.mu.Lock()
				p.problems = append(p.problems, m.String())
				p.mu.Unlock()
			}
		}
	}()
	t.Cleanup(p.checkConsole)
	return p
}

// checkConsole fails on any console error: a CSP violation, a script error,
// a failed request.
func (p *page) checkConsole() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, m := range p.problems {
		p.t.Errorf("browser console: %s", m)
	}
}

func (p *page) do(actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, stepTimeout)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		p.t.Fatal(err)
	}
}

func js[T any](p *page, expr string) T {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, stepTimeout)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// wait polls a JavaScript condition until it holds.
func (p *page) wait(what, cond string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, stepTimeout)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](cond, chromedp.WithPollingTimeout(stepTimeout))); err != nil {
		body, _ := chromedp.Run(p.ctx, chromedp.Evaluate[string](`document.body.innerText`))
		p.t.Fatalf("waiting for %s (%s): %v\npage text:\n%s", what, cond, err, body)
	}
}

// open loads the hub and waits until it has read the settings.
func (p *page) open(url string) {
	p.t.Helper()
	p.do(chromedp.Navigate(url))
	p.wait("the hub to be ready", `document.body.dataset.ready === "true"`)
}

func (p *page) text(sel string) string {
	p.t.Helper()
	return js[string](p, fmt.Sprintf(`document.querySelector(%q).textContent.trim()`, sel))
}

func (p *page) visible(sel string) bool {
	p.t.Helper()
	return js[bool](p, fmt.Sprintf(`(() => { const e = document.querySelector(%q); return !!e && e.checkVisibility(); })()`, sel))
}

func field(key, control string) chromedp.CSS {
	return chromedp.CSS(fmt.Sprintf(`.field[data-key=%q] %s`, key, control))
}

// selectOption picks a value in a setting's select as a user would.
func (p *page) selectOption(key, value string) {
	p.t.Helper()
	js[chromedp.Void](p, fmt.Sprintf(`(() => {
		const s = document.querySelector('.field[data-key=%q] select');
		s.focus(); s.value = %q; s.dispatchEvent(new Event('change', { bubbles: true }));
	})()`, key, value))
}

// typeInto replaces a text or number input's content by typing.
func (p *page) typeInto(key, text string) {
	p.t.Helper()
	js[chromedp.Void](p, fmt.Sprintf(`(() => {
		const i = document.querySelector('.field[data-key=%q] input');
		i.focus(); i.select();
	})()`, key))
	p.do(chromedp.KeyEvent("\b"), chromedp.SendKeys(field(key, "input"), text))
}

// shot saves a PNG, once per colour scheme, when CHARTER_SCREENSHOTS is set.
func (p *page) shot(name string, capture func() chromedp.Action[[]byte]) {
	p.t.Helper()
	if p.shots == "" {
		return
	}
	if err := os.MkdirAll(p.shots, 0o755); err != nil {
		p.t.Fatal(err)
	}
	for _, scheme := range []string{"light", "dark"} {
		p.scheme(scheme)
		ctx, cancel := context.WithTimeout(p.ctx, stepTimeout)
		png, err := chromedp.Run(ctx, capture())
		cancel()
		if err != nil {
			p.t.Fatalf("screenshot %s: %v", name, err)
		}
		file := filepath.Join(p.shots, fmt.Sprintf("%s-%s.png", name, scheme))
		if err := os.WriteFile(file, png, 0o644); err != nil {
			p.t.Fatal(err)
		}
	}
	p.scheme("light")
}

func (p *page) scheme(s string) {
	p.t.Helper()
	_, err := chromedp.Call(p.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: s}},
	})
	if err != nil {
		p.t.Fatal(err)
	}
	// Let the new colours paint before a screenshot.
	p.do(chromedp.Evaluate[chromedp.Void](`new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))`, chromedp.EvalAwaitPromise))
}

// scrollSettled waits until sel is in the viewport and the page stops
// scrolling: the scroll position stays the same across two frames in a row.
func (p *page) scrollSettled(sel string) {
	p.t.Helper()
	js[chromedp.Void](p, `new Promise((r) => {
		const inView = () => { const b = document.querySelector('`+sel+`').getBoundingClientRect();
			return b.top >= 0 && b.bottom <= innerHeight; };
		const frame = () => new Promise((f) => requestAnimationFrame(f));
		const at = () => [scrollX, scrollY].join();
		(async () => {
			let last = at();
			for (;;) {
				await frame(); await frame();
				const now = at();
				if (now === last && inView()) return r();
				last = now;
			}
		})();
	})`)
}

// enter presses Enter as a keyboard does: SendKeys("\r") adds a char event
// that submits the form even when keydown was cancelled.
var enter = chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
	for _, typ := range []input.DispatchKeyEventType{input.DispatchKeyEventTypeRawKeyDown, input.DispatchKeyEventTypeKeyUp} {
		if _, err := cdp.Call(ctx, t, input.DispatchKeyEvent, input.DispatchKeyEventParams{
			Type: typ, Key: "Enter", Code: "Enter", WindowsVirtualKeyCode: 13, NativeVirtualKeyCode: 13,
		}); err != nil {
			return err
		}
	}
	return nil
})

// fullPage makes the viewport as tall as the page first, so that the
// sticky save bar sits at the end and not across the middle.
func fullPage() chromedp.Action[[]byte] {
	return func(ctx context.Context, t *chromedp.Target) ([]byte, error) {
		h, err := chromedp.Evaluate[int64](`document.documentElement.scrollHeight`)(ctx, t)
		if err != nil {
			return nil, err
		}
		if _, err := chromedp.EmulateViewport(1200, h)(ctx, t); err != nil {
			return nil, err
		}
		png, err := chromedp.CaptureScreenshot()(ctx, t)
		if _, cerr := cdp.Call(ctx, t, emulation.ClearDeviceMetricsOverride, cdp.Empty{}); err == nil {
			err = cerr
		}
		return png, err
	}
}

func viewport() chromedp.Action[[]byte] { return chromedp.CaptureScreenshot() }
func element(sel string) func() chromedp.Action[[]byte] {
	return func() chromedp.Action[[]byte] { return chromedp.Screenshot(chromedp.CSS(sel)) }
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

// A host root inside the companion tree whose settings.yaml is a link to a
// file every profile shares: saving asks first, with exactly two choices.
// Cancel sends nothing and keeps the edit; Write goes through the link.
func TestBrowserSharedWrite(t *testing.T) {
	p := newPage(t)
	e := newHubEnv(t, ".agent-switch/claude/work/charter")
	sharedDir := filepath.Join(e.home, ".agent-switch", "shared")
	shared := filepath.Join(sharedDir, "settings.yaml")
	before := []byte("# shared by every profile\nrules:\n  tier: minimal\n")
	for _, d := range []string{sharedDir, e.scope.Path} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(shared, before, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(e.scope.Path, "settings.yaml")
	if err := os.Symlink(shared, link); err != nil {
		t.Skip("no symlinks here:", err)
	}
	srv := e.start(t)
	p.open(srv.HubURL())
	// A profile is active, but the host's root is what is served.
	if got, want := p.text("#scope-title"), "Host root "+e.scope.Path+" — changes here apply to this config root only"; got != want {
		t.Errorf("banner %q, want %q", got, want)
	}
	if got := js[string](p, `document.querySelector('#scope-banner').dataset.kind`); got != "host" {
		t.Errorf("banner kind %q, want host", got)
	}
	if got := p.text("#scope-detail"); !strings.Contains(got, "profile claude/work is active, but the host chose this root") {
		t.Errorf("banner detail %q", got)
	}
	if got := js[string](p, `document.querySelector('.field[data-key="rules.tier"] select').value`); got != "minimal" {
		t.Fatalf("the shared file's value is not shown: %q", got)
	}

	save := func() {
		t.Helper()
		p.do(chromedp.Click(chromedp.ID("save")))
		p.sharedDialog(link)
	}

	p.selectOption("rules.tier", "full")
	save()
	p.shot("dialog", viewport)
	// The link is the file itself; its long path wraps at separators only.
	if got := p.text("#shared-title"); got != "This file is shared by all profiles" {
		t.Errorf("dialog title %q", got)
	}
	p.pathBreaksAtSeparators("#shared-path code")
	p.do(chromedp.Click(chromedp.ID("shared-cancel")))
	p.wait("the dialog to close", `!document.querySelector('#shared-dialog').open`)
	p.wait("the cancel note", `document.querySelector('#save-status').textContent.startsWith('Not saved')`)
	if got, _ := os.ReadFile(shared); string(got) != string(before) {
		t.Errorf("Cancel changed the shared file:\n%s", got)
	}
	if got := js[string](p, `document.querySelector('.field[data-key="rules.tier"] select').value`); got != "full" {
		t.Errorf("Cancel lost the edit: %q", got)
	}

	save()
	p.do(chromedp.Click(chromedp.ID("shared-write")))
	p.wait("the confirmed save", `document.querySelector('#save-status').textContent === 'Saved 1 change'`)
	got, _ := os.ReadFile(shared)
	if !strings.Contains(string(got), "tier: full") || !strings.Contains(string(got), "# shared by every profile") {
		t.Errorf("not written through the link:\n%s", got)
	}
	if target, err := os.Readlink(link); err != nil || target != shared {
		t.Errorf("link not intact: %q %v", target, err)
	}
}

// sharedDialog waits for the shared-write dialog and checks that it offers
// exactly the two choices, names the link and the way out.
func (p *page) sharedDialog(link string) {
	p.t.Helper()
	p.wait("the shared-write dialog", `document.querySelector('#shared-dialog').open`)
	buttons := js[[]string](p, `[...document.querySelectorAll('#shared-dialog button')].map((b) => b.textContent.trim())`)
	slices.Sort(buttons)
	if want := []string{"Cancel", "Write (affects all profiles)"}; !slices.Equal(buttons, want) {
		p.t.Errorf("dialog buttons %q, want exactly %q", buttons, want)
	}
	if txt := p.text("#shared-dialog"); !strings.Contains(txt, link) || !strings.Contains(txt, "agent-switch share off") {
		p.t.Errorf("the dialog must name the link and the way out:\n%s", txt)
	}
}

// pathBreaksAtSeparators checks that a path shown in sel wraps, and only
// right after a / or \, never inside a name.
func (p *page) pathBreaksAtSeparators(sel string) {
	p.t.Helper()
	breaks := js[[]string](p, fmt.Sprintf(`(() => {
		const code = document.querySelector(%q);
		const r = document.createRange();
		const walk = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
		const breaks = [];
		let top = null, last = '';
		for (let n = walk.nextNode(); n; n = walk.nextNode()) {
			for (let i = 0; i < n.length; i++) {
				r.setStart(n, i); r.setEnd(n, i + 1);
				const t = r.getClientRects()[0]?.top ?? top;
				if (top !== null && t > top + 2) breaks.push(last);
				top = t; last = n.data[i];
			}
		}
		return breaks;
	})()`, sel))
	if len(breaks) == 0 {
		p.t.Errorf("%s does not wrap: the test needs a path longer than its line", sel)
	}
	for _, c := range breaks {
		if c != "/" && c != `\` {
			p.t.Errorf("%s wraps after %q, inside a name: %q", sel, c, p.text(sel))
		}
	}
}

// claudeState is the state the agent files panel shows for claude.
const claudeState = `document.querySelector('#apply-targets [data-agent="claude"]')?.dataset.state`

// The agent files panel of a profile: a save leaves the profile's CLAUDE.md
// out of date, the save bar offers the next step, and "Apply to agents"
// writes the charter block with the saved value and keeps the user's text.
// A file whose markers broke meanwhile is reported with its line and left
// alone.
func TestBrowserApply(t *testing.T) {
	p := newPage(t)
	e := newHubEnv(t, "")
	file := filepath.Join(e.configDir(t), "CLAUDE.md")
	// The last line is long and unbroken, like a URL: the diff must not cut it off.
	mine := "# My notes\n\nKeep answers short.\nSee https://example.com/" + strings.Repeat("very-long-path-segment/", 20) + "end\n"
	if err := os.WriteFile(file, []byte(mine), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := e.start(t)
	p.open(srv.HubURL())
	p.wait("the agent files", claudeState+` === 'outdated'`)
	if got := p.text(`#apply-targets [data-agent="claude"] .apply-path`); got != file {
		t.Errorf("panel shows path %q, want %q", got, file)
	}
	if p.visible("#apply-offer") {
		t.Error("the save bar offers to apply before any save")
	}

	p.selectOption("worktrees.mode", "on")
	p.do(chromedp.Click(chromedp.ID("save")))
	p.wait("the save", `document.querySelector('#save-status').textContent === 'Saved 1 change'`)
	p.wait("the offer to apply", `document.querySelector('#apply-offer').checkVisibility()`)
	if got := p.text("#apply-offer"); !strings.HasPrefix(got, "Agents do not follow these settings yet.") {
		t.Errorf("save bar offer %q", got)
	}
	p.wait("the new diff", `document.querySelector('#apply-targets [data-agent="claude"] .apply-diff pre')?.textContent.includes('Worktrees: **on**')`)
	if got := p.text("#apply-status"); got != "1 file out of date: agents still follow the earlier settings. 1 file not written yet: its agent does not know these settings." {
		t.Errorf("panel status %q", got)
	}
	p.shot("apply", element("#apply-panel"))
	// The page's end: the panel with its diff open, and the save bar's offer.
	p.do(chromedp.Click(chromedp.CSS(`#apply-targets [data-agent="claude"] .apply-diff summary`)))
	// The diff shows every character of the long line, inside the panel.
	pre := `#apply-targets [data-agent="claude"] .apply-diff pre`
	if !js[bool](p, `(() => { const pre = document.querySelector('`+pre+`');
		const panel = document.querySelector('#apply-panel').getBoundingClientRect();
		return pre.scrollWidth <= pre.clientWidth && pre.getBoundingClientRect().right <= panel.right; })()`) {
		t.Errorf("the diff clips its long line: %v", js[[]float64](p, `(() => { const pre = document.querySelector('`+pre+`');
			return [pre.scrollWidth, pre.clientWidth, pre.getBoundingClientRect().right, document.querySelector('#apply-panel').getBoundingClientRect().right]; })()`))
	}
	if !strings.Contains(p.text(pre), "/end") {
		t.Error("the diff lacks the end of the long line")
	}
	js[chromedp.Void](p, `window.scrollTo(0, document.documentElement.scrollHeight)`)
	p.shot("apply-page", viewport)

	// The offer brings the button into view and focus.
	p.do(chromedp.Click(chromedp.ID("apply-offer-go")))
	// The offer scrolls smoothly: a click lands where the button is when
	// the scroll ends, not where it was when the click was computed.
	p.scrollSettled("#apply")
	if got := js[string](p, `document.activeElement.id`); got != "apply" {
		t.Errorf("focus on %q after the offer, want the apply button", got)
	}
	// The focused button takes Enter as a keyboard user gives it: a
	// pointer click computed while a long page still scrolls can miss.
	p.do(chromedp.KeyEvent("\r"))
	p.wait("the write", claudeState+` === 'written'`)
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	got := string(data)
	if !strings.HasPrefix(got, mine+"\n<!-- charter:begin -->\n") || !strings.HasSuffix(got, "<!-- charter:end -->\n") ||
		!strings.Contains(got, "Worktrees: **on**") || !strings.Contains(got, "for the profile claude/work") {
		t.Errorf("CLAUDE.md after apply:\n%s", got)
	}
	if got := p.text("#apply-status"); got != "Applied: 2 files updated." {
		t.Errorf("panel status %q", got)
	}
	if !js[bool](p, `document.querySelector('#apply').disabled`) || p.visible("#apply-offer") {
		t.Error("nothing is left to apply, yet the button or the offer is still there")
	}
	p.shot("apply-done", element("#apply-panel"))

	// Another save; then the markers break before the click.
	p.selectOption("memory.cadence", "never")
	p.do(chromedp.Click(chromedp.ID("save")))
	p.wait("the panel after the second save", claudeState+` === 'outdated'`)
	bad := "<!-- charter:end -->\n# My notes\n"
	if err := os.WriteFile(file, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	// The sticky save bar may cover the button at the page's end; a user
	// scrolls it clear first.
	js[chromedp.Void](p, `document.querySelector('#apply').scrollIntoView({ block: 'center' })`)
	p.do(chromedp.Click(chromedp.ID("apply")))
	p.wait("the marker error", `document.querySelector('#apply-status').classList.contains('is-error')`)
	if msg := p.text("#apply-status"); !strings.Contains(msg, "end at line 1 has no begin") || !strings.Contains(msg, file) {
		t.Errorf("marker error %q does not name the file and line", msg)
	}
	if data, _ := os.ReadFile(file); string(data) != bad {
		t.Errorf("a file with broken markers was written:\n%s", data)
	}
}

// CLAUDE.md of the profile links to a file every profile shares: "Apply to
// agents" asks first with the settings save's dialog. Cancel writes
// nothing; Write goes through the link and leaves the link as it was.
func TestBrowserApplyShared(t *testing.T) {
	p := newPage(t)
	e := newHubEnv(t, "")
	link := filepath.Join(e.configDir(t), "CLAUDE.md")
	shared := filepath.Join(e.home, ".agent-switch", "shared", "CLAUDE.md")
	before := "# shared by every profile\n"
	if err := os.MkdirAll(filepath.Dir(shared), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(shared, []byte(before), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(shared, link); err != nil {
		t.Skip("no symlinks here:", err)
	}
	srv := e.start(t)
	p.open(srv.HubURL())
	p.wait("the agent files", claudeState+` === 'outdated'`)
	if !p.visible(`#apply-targets [data-agent="claude"] .apply-shared`) {
		t.Error("the panel does not say the file is shared")
	}

	p.do(chromedp.Click(chromedp.ID("apply")))
	p.sharedDialog(link)
	p.shot("apply-dialog", viewport)
	p.do(chromedp.Click(chromedp.ID("shared-cancel")))
	p.wait("the dialog to close", `!document.querySelector('#shared-dialog').open`)
	p.wait("the cancel note", `document.querySelector('#apply-status').textContent.startsWith('Not applied')`)
	if got := js[string](p, claudeState); got != "blocked" {
		t.Errorf("claude is %q after Cancel, want blocked", got)
	}
	if got := js[string](p, `document.activeElement.id`); got != "apply" {
		t.Errorf("focus on %q after Cancel, want back on the apply button", got)
	}
	if got, _ := os.ReadFile(shared); string(got) != before {
		t.Errorf("Cancel changed the shared file:\n%s", got)
	}

	p.do(chromedp.Click(chromedp.ID("apply")))
	p.sharedDialog(link)
	p.do(chromedp.Click(chromedp.ID("shared-write")))
	p.wait("the confirmed write", claudeState+` === 'written'`)
	got, _ := os.ReadFile(shared)
	if !strings.HasPrefix(string(got), before+"\n<!-- charter:begin -->\n") {
		t.Errorf("not written through the link:\n%s", got)
	}
	if target, err := os.Readlink(link); err != nil || target != shared {
		t.Errorf("link not intact: %q %v", target, err)
	}
}

// The profile's whole config folder is a link every profile shares: the
// dialog says "folder", names the link, and Cancel writes nothing.
func TestBrowserSharedFolder(t *testing.T) {
	p := newPage(t)
	e := newHubEnv(t, "")
	shared := filepath.Join(e.home, ".agent-switch", "shared-config")
	if err := os.MkdirAll(shared, 0o700); err != nil {
		t.Fatal(err)
	}
	before := "# shared by every profile\n"
	if err := os.WriteFile(filepath.Join(shared, "CLAUDE.md"), []byte(before), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(e.home, ".agent-switch", "claude", "work", "config")
	if err := os.MkdirAll(filepath.Dir(link), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(shared, link); err != nil {
		t.Skip("no symlinks here:", err)
	}
	srv := e.start(t)
	p.open(srv.HubURL())
	p.wait("the agent files", claudeState+` === 'outdated'`)
	p.do(chromedp.Click(chromedp.ID("apply")))
	p.sharedDialog(link)
	if got := p.text("#shared-title"); got != "This folder is shared by all profiles" {
		t.Errorf("dialog title %q for a linked folder", got)
	}
	if got := p.text("#shared-path-label"); got != "Shared folder:" {
		t.Errorf("path label %q", got)
	}
	if got := p.text("#shared-path"); got != link {
		t.Errorf("dialog names %q, want the folder link %q", got, link)
	}
	p.shot("dialog-folder", viewport)
	p.do(chromedp.Click(chromedp.ID("shared-cancel")))
	p.wait("the cancel note", `document.querySelector('#apply-status').textContent.startsWith('Not applied')`)
	if got, _ := os.ReadFile(filepath.Join(shared, "CLAUDE.md")); string(got) != before {
		t.Errorf("Cancel changed the shared file:\n%s", got)
	}
}

// Outside a profile with no agent directory there is nothing to apply to:
// the panel says so, and offers no button.
func TestBrowserApplyNoAgent(t *testing.T) {
	p := newPage(t)
	e := newHubEnvWith(t, "", false)
	srv := e.start(t)
	p.open(srv.HubURL())
	if got := p.text("#scope-title"); got != "Global settings — no agent-switch profile is active" {
		t.Errorf("banner %q", got)
	}
	p.wait("the explanation", `document.querySelector('#apply-status').classList.contains('is-error')`)
	if msg := p.text("#apply-status"); !strings.HasPrefix(msg, "No agent directory found") || !strings.Contains(msg, filepath.Join(e.home, ".claude")) {
		t.Errorf("panel says %q", msg)
	}
	if !js[bool](p, `document.querySelector('#apply').disabled`) || p.visible("#apply-targets") {
		t.Error("with no agent, the panel still lists targets or offers to apply")
	}
	p.shot("apply-no-agent", element("#apply-panel"))
}

// A tab that `charter serve --open` opened (#token=…&open=1) owns the
// server: leaving the page sends the shutdown beacon. Any other tab does not.
func TestBrowserShutdownBeacon(t *testing.T) {
	p := newPage(t)
	e := newHubEnv(t, "")
	srv := e.start(t)

	p.open(srv.HubURL())
	p.do(chromedp.Navigate("about:blank"))
	select {
	case <-srv.done:
		t.Fatal("a tab not opened by --open stopped the server")
	case <-time.After(time.Second):
	}

	// A reload sends the beacon too, but the page comes back at once.
	p.open(srv.HubURL() + "&open=1")
	p.do(chromedp.Reload())
	select {
	case <-srv.done:
		t.Fatal("reloading the --open tab stopped the server")
	case <-time.After(beaconGrace + time.Second):
	}
	p.do(chromedp.Navigate("about:blank"))
	srv.waitStopped(t, "beacon")
	if _, err := os.Stat(discovery.Path(e.sys, e.scope)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("discovery file left behind: %v", err)
	}
}
