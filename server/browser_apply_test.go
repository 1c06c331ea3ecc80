package server

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

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
	if _, err := os.Stat(DiscoveryPath(e.sys, e.scope)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("discovery file left behind: %v", err)
	}
}
