package server

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

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
