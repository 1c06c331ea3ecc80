package server

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/coretest"
)

// The open page is 0600 even over a looser older copy, carries the hub
// URL (token in the fragment) and is opened by a URL without the token.
func TestWriteOpenPage(t *testing.T) {
	e := newEnv(t)
	path := OpenFilePath(e.sys, e.scope)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	hub := "http://127.0.0.1:41234/#token=" + strings.Repeat("ab", 32) + "&open=1"
	u, err := WriteOpenPage(e.sys, e.scope, hub)
	if err != nil {
		t.Fatal(err)
	}
	if want := "file://" + filepath.ToSlash(path); u != want || strings.Contains(u, "token") {
		t.Errorf("url %q, want %q", u, want)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	esc := strings.ReplaceAll(hub, "&", "&amp;")
	for _, want := range []string{`<meta http-equiv="refresh" content="0;url=` + esc + `">`, `<a href="` + esc + `">`, `<meta name="referrer" content="no-referrer">`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("page lacks %s:\n%s", want, data)
		}
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", fi.Mode().Perm())
	}
}

func TestFileURL(t *testing.T) {
	win := coretest.New(t, coretest.Fs(afero.NewMemMapFs())).Sys
	win.Paths.Windows = true
	unix := coretest.New(t, coretest.Fs(afero.NewMemMapFs())).Sys
	unix.Paths.Windows = false
	for _, tt := range []struct {
		sys  *core.System
		path string
		want string
	}{
		{unix, "/home/me/.agentkit/charter/state/open-hub.html", "file:///home/me/.agentkit/charter/state/open-hub.html"},
		{unix, "/tmp/a dir/#x/open-hub.html", "file:///tmp/a%20dir/%23x/open-hub.html"},
		{win, `C:\Users\me\.agentkit\charter\state\open-hub.html`, "file:///C:/Users/me/.agentkit/charter/state/open-hub.html"},
	} {
		if got := fileURL(tt.sys, tt.path); got != tt.want {
			t.Errorf("fileURL(%q) = %q, want %q", tt.path, got, tt.want)
		}
	}
}

// A stop removes the open page while it holds this server's token, also
// when another process wrote it; a page of another token stays.
func TestStopRemovesOpenPage(t *testing.T) {
	e := newEnv(t)
	r := e.start(t, 0)
	if _, err := WriteOpenPage(e.sys, e.scope, r.URL()+"#token="+r.Token()); err != nil {
		t.Fatal(err)
	}
	r.stop()
	if _, err := os.Stat(OpenFilePath(e.sys, e.scope)); !os.IsNotExist(err) {
		t.Errorf("page left behind: %v", err)
	}

	r = e.start(t, 0)
	if _, err := WriteOpenPage(e.sys, e.scope, r.URL()+"#token="+strings.Repeat("0", 64)); err != nil {
		t.Fatal(err)
	}
	r.stop()
	if _, err := os.Stat(OpenFilePath(e.sys, e.scope)); err != nil {
		t.Errorf("a page of another token was removed: %v", err)
	}
}

// Connect names live servers of the global scope and of profiles, and
// leaves out its own scope and stale files.
func TestNoServerNamesOthers(t *testing.T) {
	e := newEnv(t)
	root := filepath.Join(e.home, ".agentkit", "charter")
	global := core.Scope{Kind: core.ScopeGlobal, Path: root, Root: core.ConfigRoot{Path: root, Source: core.SourceDefault}}
	profile := core.Scope{Kind: core.ScopeProfile, Path: filepath.Join(root, "profiles", "codex", "dev"), Root: global.Root}
	stale := filepath.Join(root, "profiles", "claude", "old", DiscoveryName)
	if err := os.MkdirAll(filepath.Dir(stale), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(stale, []byte(`{"pid":2147483646,"port":1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, sc := range []core.Scope{global, profile} {
		s, err := Open(Config{Sys: e.sys, Scope: sc, Version: "1.2.3-test"})
		if err != nil {
			t.Fatal(err)
		}
		serve(t, s)
	}

	_, err := Connect(e.sys, e.scope) // the host root: nothing there
	var ns *NoServerError
	if !errors.As(err, &ns) || len(ns.Others) != 2 || ns.Others[0].Dir != global.Path || ns.Others[1].Dir != profile.Path {
		t.Fatalf("%#v", err)
	}
	msg := err.Error()
	for _, want := range []string{
		"; but a server runs for the global scope (" + root + ") at http://127.0.0.1:",
		"run charter with no agent-switch profile active and without --config-root to reach it",
		"; but a server runs for profile codex/dev (" + profile.Path + ")",
		"run charter with CODEX_HOME=" + filepath.Join(e.home, ".agent-switch", "codex", "dev", "config") + " and without --config-root",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q:\n%s", want, msg)
		}
	}
	if strings.Contains(msg, "claude/old") {
		t.Errorf("a stale server is named:\n%s", msg)
	}

	// From the profile's own scope, only the global server is another.
	c, err := Connect(e.sys, profile)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Ping(context.Background()); err != nil {
		t.Fatal(err)
	}
	if others := OtherServers(e.sys, profile); len(others) != 1 || others[0].Dir != global.Path {
		t.Errorf("others of the profile: %+v", others)
	}
}

// isLink reports whether path is a symbolic link.
func isLink(t *testing.T, path string) bool {
	t.Helper()
	fi, err := os.Lstat(path)
	return err == nil && fi.Mode()&os.ModeSymlink != 0
}

// A link at the open page's path is never removed or replaced: writing the
// page goes through it, and a stop leaves it, although the page behind it
// holds this server's token.
func TestOpenPageLinkSurvives(t *testing.T) {
	e := newEnv(t)
	path := OpenFilePath(e.sys, e.scope)
	target := filepath.Join(e.dir, "elsewhere", "page.html")
	coretest.WriteFile(t, target, "someone's file\n")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
	r := e.start(t, 0)
	if _, err := WriteOpenPage(e.sys, e.scope, r.URL()+"#token="+r.Token()); err != nil {
		t.Fatal(err)
	}
	if !isLink(t, path) {
		t.Fatal("writing the page replaced the link")
	}
	if data, err := os.ReadFile(target); err != nil || !strings.Contains(string(data), "#token="+r.Token()) {
		t.Fatalf("the page was not written through the link: %q %v", data, err)
	}
	r.stop()
	if !isLink(t, path) {
		t.Error("the stop removed the link")
	}
}

// Nor is a link at the token's or the discovery file's path removed by a
// stop: the server writes through them, and leaves them.
func TestStopLeavesStateLinks(t *testing.T) {
	e := newEnv(t)
	links := []string{TokenPath(e.sys, e.scope), DiscoveryPath(e.sys, e.scope), OpenFilePath(e.sys, e.scope)}
	for i, p := range links {
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Join(e.dir, "target", strconv.Itoa(i)), p); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(e.dir, "target"), 0o700); err != nil {
		t.Fatal(err)
	}
	r := e.start(t, 0)
	// The open page behind its link, as another process may have written it.
	coretest.WriteFile(t, filepath.Join(e.dir, "target", "2"), "<a href=\""+r.URL()+"#token="+r.Token()+"\">\n")
	r.stop()
	for _, p := range links {
		if !isLink(t, p) {
			t.Errorf("%s: the link was removed", p)
		}
	}
}
