package server

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/profile"
	"github.com/agentkit/charter/core/session"
	"github.com/agentkit/charter/core/settings"
	"github.com/agentkit/charter/core/sources"
)

// needGit is git's path; it fails under CI=true when git is missing, as
// a missing browser does, and skips elsewhere.
func needGit(t *testing.T) string {
	t.Helper()
	bin, err := exec.LookPath("git")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true but git is missing, so the shared sources card is untested: %v", err)
		}
		t.Skipf("skipping: no git on PATH: %v", err)
	}
	return bin
}

// gitRepo makes a repository at dir with files and commits them.
func gitRepo(t *testing.T, bin, dir string, files map[string]string) (git func(args ...string) string) {
	t.Helper()
	git = func(args ...string) string {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
			"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out))
	}
	for name, body := range files {
		coretest.WriteFile(t, filepath.Join(dir, name), body)
	}
	git("init", "-q", "-b", "main")
	git("add", "-A")
	git("commit", "-q", "-m", "one")
	return git
}

// The content tab's "Shared sources" card lists each source with its URL,
// ref, short pinned commit, declaring layer (the policy's included), cache
// state and "update available" from the last fetch, and never fetches: a
// commit pushed after the last fetch does not show.
func TestBrowserSources(t *testing.T) {
	p := newPage(t)
	bin := needGit(t)
	m := coretest.New(t, coretest.Env("PATH="+filepath.Dir(bin)))
	lib := filepath.Join(m.Dir, "lib")
	git := gitRepo(t, bin, lib, map[string]string{"rules/team-style.md": "---\ndescription: Team style\n---\nUse tabs.\n"})
	org := filepath.Join(m.Dir, "org")
	gitRepo(t, bin, org, map[string]string{"rules/org-style.md": "---\ndescription: Org style\n---\nSign.\n"})
	coretest.WriteFile(t, m.PolicyFile, "sources: ['"+org+"']\n")
	root := filepath.Join(m.Home, "root")
	sc, err := profile.ResolveScope(m.Sys, &root)
	if err != nil {
		t.Fatal(err)
	}
	cli := session.New(m.Sys, session.Options{Scope: &sc, FetchSources: true})
	ctx := t.Context()
	if _, err := cli.SourcesAdd(ctx, settings.LayerScope, sources.Decl{Name: "team", URL: lib, Ref: "main"}, false); err != nil {
		t.Fatal(err)
	}
	if _, err := cli.SourcesUpdate(ctx, settings.LayerPolicy, "", false, false); err != nil {
		t.Fatal(err)
	}
	pinned := git("rev-parse", "HEAD")
	// The team pushes; a dry run fetches and sees it; then one more push
	// that nothing fetches.
	coretest.WriteFile(t, filepath.Join(lib, "rules", "team-style.md"), "---\ndescription: Team style\n---\nUse spaces.\n")
	git("commit", "-q", "-am", "two")
	seen := git("rev-parse", "HEAD")
	if _, err := cli.SourcesUpdate(ctx, settings.LayerScope, "team", true, false); err != nil {
		t.Fatal(err)
	}
	coretest.WriteFile(t, filepath.Join(lib, "rules", "later.md"), "---\ndescription: Later\n---\nx\n")
	git("add", "-A")
	git("commit", "-q", "-m", "three")
	// The policy's tree leaves the cache.
	list, err := cli.SourcesList(context.Background())
	if err != nil || len(list) != 2 {
		t.Fatalf("sources list: %v %v", list, err)
	}
	cache, err := sources.OpenCache(m.Sys)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range list {
		if e.Layer == settings.LayerPolicy {
			if err := os.RemoveAll(cache.TreeDir(sources.Pin{Decl: e.Decl, Commit: e.Commit})); err != nil {
				t.Fatal(err)
			}
		}
	}

	s, _ := openServer(t, m.Sys, sc, "", 0)
	h := serveHub(t, s)
	p.open(h.HubURL())
	p.do(chromedp.Click(chromedp.ID("tab-content")))
	team := `#sources-rows tr[data-source="team"]`
	p.wait("the sources card", `!!document.querySelector('`+team+`')`)

	if got := js[string](p, `document.querySelector('#sources-panel').getAttribute('aria-labelledby')`); got != "sources-title" || p.text("#sources-title") != "Shared sources" {
		t.Errorf("the card is labelled by %q (%q)", got, p.text("#sources-title"))
	}
	if n := js[int](p, `[...document.querySelectorAll('section[aria-labelledby], [role=region]')].filter((e) => e.getAttribute('aria-labelledby') === 'sources-title').length`); n != 1 {
		t.Errorf("%d regions named Shared sources, want 1", n)
	}
	want := map[string]string{
		" .source-name":   "team",
		" .source-url":    lib,
		" .source-ref":    "main",
		" .source-pin":    pinned[:12],
		" .source-layer":  "Your scope",
		" .source-cache":  "Cached",
		" .source-update": "Update available: " + seen[:12],
	}
	for sel, w := range want {
		if got := p.text(team + sel); got != w {
			t.Errorf("team%s = %q, want %q", sel, got, w)
		}
	}
	pol := `#sources-rows tr[data-source="org"]`
	for sel, w := range map[string]string{" .source-layer": "The policy", " .source-cache": "Not in the cache", " .source-update": "Up to date"} {
		if got := p.text(pol + sel); got != w {
			t.Errorf("org%s = %q, want %q", sel, got, w)
		}
	}
	if n := js[int](p, `document.querySelectorAll('#sources-table thead th[scope=col]').length`); n != 7 {
		t.Errorf("%d column headers, want 7", n)
	}
	if n := js[int](p, `document.querySelectorAll('#sources-table button, #sources-table input').length`); n != 0 {
		t.Errorf("the card has %d controls; it is read-only", n)
	}
	js[chromedp.Void](p, `document.querySelector('#sources-panel').scrollIntoView({ block: 'center' })`)
	p.shot("sources", element("#sources-panel"))

	// The hub fetched nothing: the policy's tree is still missing and the
	// last fetch still names the second commit.
	after, err := cli.SourcesList(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range after {
		if e.Layer == settings.LayerPolicy && e.Cached {
			t.Error("the hub fetched the policy's source")
		}
		if e.Name == "team" && e.Latest != seen {
			t.Errorf("the last fetch names %s after the hub, want %s", e.Latest, seen)
		}
	}
}
