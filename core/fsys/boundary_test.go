//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package fsys

import (
	"errors"
	"io/fs"
	"os"
	"testing"
)

// walkers are both walks: the boundary's rules must hold in the portable
// one (Windows) as in the handle walk.
var walkers = map[string]func(path string, o Options) (interface {
	Write([]byte, Perm) error
	Close() error
}, error){
	"unix": func(p string, o Options) (interface {
		Write([]byte, Perm) error
		Close() error
	}, error) {
		return Walk(p, o)
	},
	"portable": func(p string, o Options) (interface {
		Write([]byte, Perm) error
		Close() error
	}, error) {
		return portableWalk(p, o)
	},
}

// project builds proj/ beside outside/, which holds a file a hostile
// repository would like charter to write.
func project(t *testing.T) (tree, string) {
	tr := newTree(t)
	tr.dir("proj/docs", "proj/sub", "outside/dir")
	tr.file("outside/keys", "ssh-ed25519 mine\n", 0o600)
	tr.file("outside/dir/copilot.md", "my own\n", 0o644)
	return tr, tr.p("proj")
}

func TestBoundaryRefusesLinksOut(t *testing.T) {
	for name, walk := range walkers {
		t.Run(name, func(t *testing.T) {
			tr, root := project(t)
			tr.link("proj/CLAUDE.md", tr.p("outside/keys"))   // absolute
			tr.link("proj/AGENTS.md", "../outside/keys")      // ".." out of the root
			tr.link("proj/.github", "../outside/dir")         // a directory
			tr.link("proj/.cursor", "../nosuch")              // dangling: nothing may be created
			tr.link("proj/hop", "../outside/hop")             // a chain that ends outside
			tr.link("outside/hop", "keys")                    //
			tr.link("proj/sub/deep.md", "../../outside/keys") // from below the root
			tr.link("proj/dots", "nosuch/../../outside/keys") // ".." past a missing directory
			tr.link("proj/up", "../..")                       // ends on a directory outside
			cases := map[string]string{
				"CLAUDE.md":                 "CLAUDE.md",
				"AGENTS.md":                 "AGENTS.md",
				".github/copilot.md":        ".github",
				".github/new.md":            ".github",
				".cursor/rules/charter.mdc": ".cursor",
				"hop":                       "hop",
				"sub/deep.md":               "sub/deep.md",
				"dots":                      "dots",
				"up":                        "up",
			}
			for rel, link := range cases {
				for _, create := range []bool{false, true} {
					tg, err := walk(tr.p("proj/"+rel), Options{Boundary: root, Create: create, DirMode: 0o755})
					var oe *OutsideError
					if !errors.As(err, &oe) || oe.Link != tr.p("proj/"+link) || oe.Root != root || oe.Code() != "outside_project" {
						t.Errorf("%s (create %v): %v, want a refusal naming %s", rel, create, err, link)
						if err == nil {
							tg.Close()
						}
					}
				}
			}
			if got := tr.read("outside/keys"); got != "ssh-ed25519 mine\n" {
				t.Fatalf("outside file changed: %q", got)
			}
			if _, err := os.Lstat(tr.p("nosuch")); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("a directory was created outside the project: %v", err)
			}
			if _, err := os.Lstat(tr.p("outside/dir/new.md")); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("a file was created outside the project: %v", err)
			}
		})
	}
}

// A path that never enters the project (a repository's absolute coverage
// report) is outside too, with no link to name.
func TestBoundaryPathOutside(t *testing.T) {
	for name, walk := range walkers {
		t.Run(name, func(t *testing.T) {
			tr, root := project(t)
			_, err := walk(tr.p("outside/keys"), Options{Boundary: root})
			var oe *OutsideError
			if !errors.As(err, &oe) || oe.Link != "" || oe.Path != tr.p("outside/keys") {
				t.Fatalf("%v, want a refusal of the path", err)
			}
			if _, err := walk(tr.p("nosuch/f"), Options{Boundary: tr.p("nosuch")}); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("a boundary that does not exist: %v", err)
			}
		})
	}
}

// Links that stay inside are followed and written, and stay links; so is a
// chain that leaves the project and comes back (the directory that holds
// the file decides), and the user's own link in the root's spelling.
func TestBoundaryFollowsLinksInside(t *testing.T) {
	for name, walk := range walkers {
		t.Run(name, func(t *testing.T) {
			tr, root := project(t)
			tr.file("proj/docs/AGENTS.md", "team\n", 0o644)
			tr.link("proj/CLAUDE.md", "docs/AGENTS.md")
			tr.link("proj/.github", "sub")
			tr.link("proj/back", "../outside/back")
			tr.link("outside/back", tr.p("proj/docs/back.md"))
			tr.link("alias", "proj")
			for _, c := range []struct{ path, root, real string }{
				{"proj/CLAUDE.md", root, "proj/docs/AGENTS.md"},
				{"proj/.github/copilot.md", root, "proj/sub/copilot.md"},
				{"proj/.github/new/made.md", root, "proj/sub/new/made.md"},
				{"proj/back", root, "proj/docs/back.md"},
				{"alias/CLAUDE.md", tr.p("alias"), "proj/docs/AGENTS.md"},
			} {
				tg, err := walk(tr.p(c.path), Options{Boundary: c.root, Create: true, DirMode: 0o755})
				if err != nil {
					t.Fatalf("%s: %v", c.path, err)
				}
				err = tg.Write([]byte("written "+c.path+"\n"), Perm{New: 0o644})
				tg.Close()
				if err != nil {
					t.Fatalf("%s: %v", c.path, err)
				}
				if got := tr.read(c.real); got != "written "+c.path+"\n" {
					t.Errorf("%s: %s holds %q", c.path, c.real, got)
				}
			}
			tr.mustLink("proj/CLAUDE.md", "docs/AGENTS.md")
			tr.mustLink("proj/.github", "sub")
			tr.mustLink("outside/back", tr.p("proj/docs/back.md"))
			// The user's own links, outside any project, are followed as ever.
			tr.link("home/.bashrc", "../outside/keys")
			if err := write(tr.p("home/.bashrc"), Options{}, "dotfiles\n"); err != nil {
				t.Fatal(err)
			}
			noTemps(t, tr.base)
		})
	}
}

func TestEscapes(t *testing.T) {
	in, out := true, false
	c := func(names ...string) []comp {
		var cs []comp
		for _, n := range names {
			cs = append(cs, comp{name: n})
		}
		return cs
	}
	for _, x := range []struct {
		bound []bool
		comps []comp
		want  bool
	}{
		{[]bool{out, in}, c("new", "f"), false},
		{[]bool{out, in}, c("new", "..", "f"), false},
		{[]bool{out, in}, c("new", "..", "..", "f"), true},
		{[]bool{out, out}, c("new", "f"), true},
		{[]bool{out, in, in}, c("new", "..", "..", "f"), false},
		{[]bool{in}, c("..", "..", "f"), false}, // "/" is its own parent
	} {
		if got := escapes(x.bound, x.comps); got != x.want {
			t.Errorf("escapes(%v, %v) = %v", x.bound, x.comps, got)
		}
	}
}
