//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package fsys

import (
	"errors"
	"os"
	"testing"
)

// repo builds proj/ as a clone: a .git folder with a hook sample, and a
// second git folder where a worktree's .git file would point.
func repo(t *testing.T) (tree, string) {
	tr := newTree(t)
	tr.dir("proj/.git/hooks", "proj/.claude/rules", "proj/docs", "proj/gitdata/hooks")
	tr.file("proj/.git/config", "[core]\n", 0o644)
	tr.file("proj/AGENTS.md", "# team\n", 0o644)
	tr.file("proj/docs/notes.md", "notes\n", 0o644)
	return tr, tr.p("proj")
}

// Every spelling and link into the git folder is refused, by both walks,
// creating nothing; the folders GitDirs names are refused the same.
func TestGitFolderIsNeverATarget(t *testing.T) {
	for name, walk := range walkers {
		t.Run(name, func(t *testing.T) {
			tr, root := repo(t)
			tr.link("proj/.claude/rules/a.md", "../../.git/config")
			tr.link("proj/.claude/rules/hook.md", "../../.git/hooks/pre-commit") // dangling
			tr.link("proj/.claude/skills", "../.git/hooks")                      // a folder
			tr.link("proj/abs.md", tr.p("proj/.git/config"))                     // absolute
			tr.link("proj/CLAUDE.md", "docs/../.git/config")                     // dots
			tr.link("proj/wt.md", "gitdata/hooks/post-checkout")
			cases := map[string]string{
				".git/config":              "",
				".git/hooks/pre-commit":    "",
				".git/new/deep/file":       "",
				".git":                     "",
				"docs/../.git/config":      "",
				".claude/rules/a.md":       ".claude/rules/a.md",
				".claude/rules/hook.md":    ".claude/rules/hook.md",
				".claude/skills/x/run.sh":  ".claude/skills",
				"abs.md":                   "abs.md",
				"CLAUDE.md":                "CLAUDE.md",
				"gitdata/hooks/pre-commit": "",
				"wt.md":                    "wt.md",
			}
			if name == "portable" {
				delete(cases, "gitdata/hooks/pre-commit") // GitDirs: the handle walk's
				delete(cases, "wt.md")
			}
			for rel, link := range cases {
				for _, create := range []bool{false, true} {
					o := Options{Boundary: root, Create: create, DirMode: 0o755, GitDirs: []string{tr.p("proj/gitdata")}}
					tg, err := walk(tr.p("proj/"+rel), o)
					var ge *GitDirError
					wantLink := ""
					if link != "" {
						wantLink = tr.p("proj/" + link)
					}
					if !errors.As(err, &ge) || ge.Link != wantLink || ge.Code() != "git_dir" {
						t.Errorf("%s (create %v): %v, want a git_dir refusal naming %q", rel, create, err, link)
						if err == nil {
							tg.Close()
						}
					}
				}
			}
			for _, gone := range []string{"proj/.git/new", "proj/.git/hooks/pre-commit", "proj/.claude/skills/x"} {
				if _, err := os.Lstat(tr.p(gone)); err == nil {
					t.Errorf("%s was created", gone)
				}
			}
		})
	}
}

// StrictLinks: a link inside the project is refused, or followed only to
// one of LinkTo; nothing is created past a refused link.
func TestStrictLinks(t *testing.T) {
	for name, walk := range walkers {
		t.Run(name, func(t *testing.T) {
			tr, root := repo(t)
			tr.link("proj/CLAUDE.md", "AGENTS.md")
			tr.link("proj/GEMINI.md", "docs/notes.md")
			tr.link("proj/.claude/skills", "../docs")
			strict := Options{Boundary: root, Create: true, DirMode: 0o755, StrictLinks: true}
			for _, rel := range []string{"CLAUDE.md", "GEMINI.md", ".claude/skills/x/SKILL.md"} {
				tg, err := walk(tr.p("proj/"+rel), strict)
				var le *LinkedError
				if !errors.As(err, &le) || le.Code() != "linked_target" {
					t.Errorf("strict %s: %v, want linked_target", rel, err)
					if err == nil {
						tg.Close()
					}
				}
			}
			if _, err := os.Lstat(tr.p("proj/docs/x")); err == nil {
				t.Error("a folder was made past a refused link")
			}
			to := strict
			to.LinkTo = []string{"AGENTS.md", "CLAUDE.md", "GEMINI.md"}
			tg, err := walk(tr.p("proj/CLAUDE.md"), to)
			if err != nil {
				t.Fatalf("CLAUDE.md -> AGENTS.md: %v", err)
			}
			if err := tg.Write([]byte("one\n"), Perm{New: 0o644}); err != nil {
				t.Fatal(err)
			}
			tg.Close()
			if tr.read("proj/AGENTS.md") != "one\n" {
				t.Error("the write did not reach AGENTS.md")
			}
			tg, err = walk(tr.p("proj/GEMINI.md"), to)
			var le *LinkedError
			if !errors.As(err, &le) || le.To == "" {
				t.Errorf("GEMINI.md -> docs/notes.md: %v, want linked_target naming where it leads", err)
				if err == nil {
					tg.Close()
				}
			}
		})
	}
}

// A write through a link never creates the folders the link's text names:
// a dangling ~/.gemini/GEMINI.md -> /nonexistent/GEMINI.md is refused.
func TestDanglingLinkCreatesNothing(t *testing.T) {
	tr := newTree(t)
	tr.dir("home/.gemini", "dots")
	tr.link("home/.gemini/GEMINI.md", tr.p("nosuch/deeper/GEMINI.md"))
	tr.link("home/.gemini/ok.md", tr.p("dots/ok.md"))
	_, err := Walk(tr.p("home/.gemini/GEMINI.md"), Options{Create: true, DirMode: 0o755})
	var de *DanglingError
	if !errors.As(err, &de) || de.Link != tr.p("home/.gemini/GEMINI.md") || de.Code() != "dangling_link" {
		t.Fatalf("dangling: %v", err)
	}
	if _, err := os.Lstat(tr.p("nosuch")); err == nil {
		t.Fatal("the link's folder was created")
	}
	tg, err := Walk(tr.p("home/.gemini/GEMINI.md"), Options{})
	if err != nil || !tg.Missing || tg.Preflight() == nil {
		t.Fatalf("preflight of a dangling link: %v %+v", err, tg)
	}
	tg.Close()
	// A link whose folder exists is written through, as dotfiles managers need.
	tg, err = Walk(tr.p("home/.gemini/ok.md"), Options{Create: true, DirMode: 0o755})
	if err != nil {
		t.Fatal(err)
	}
	defer tg.Close()
	if err := tg.Preflight(); err != nil {
		t.Fatal(err)
	}
	if err := tg.Write([]byte("x"), Perm{New: 0o644}); err != nil || tr.read("dots/ok.md") != "x" {
		t.Fatalf("write through: %v", err)
	}
}
