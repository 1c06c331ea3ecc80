package server

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

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
