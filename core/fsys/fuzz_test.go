//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package fsys

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzWalk walks random paths through a tree of links inside and outside
// the companion tree and writes where the walk ends. Whatever the path:
// no panic, no write outside the trees, no write through a link inside the
// companion tree without confirmation, no link changed, no temporary file
// left.
func FuzzWalk(f *testing.F) {
	for _, s := range []string{
		"out/f", "home/p/config/CLAUDE.md", "home/p/link/f", "out/in/link/f", "out/v/x",
		"loop", "home/p/../p/link/f", "./out/./v/../v/y", "out/chain", "home/up/f",
		"home/p/config", "..", "out/in/config/new/deep/f", "home/p/abs/f", "out/dang",
		"home/dang", "out/in/../in/config/x", "home", "out/v/../../home/p/link",
	} {
		f.Add(s, false)
	}
	f.Add("home/p/link/f", true)
	f.Add("out/chain", true)
	f.Fuzz(func(t *testing.T, rel string, confirm bool) {
		if len(rel) > 200 || strings.ContainsRune(rel, 0) {
			return
		}
		tr := newTree(t)
		vaultIn, vaultOut := tr.p("vault-in"), tr.p("vault-out")
		base := tr.p("base")
		tr.file("vault-in/f", "vault\n", 0o644)
		tr.dir("vault-out", "base/home/p/config", "base/out")
		links := map[string]string{
			"base/home/p/link": vaultIn,                    // inside, absolute
			"base/home/up":     "../out",                   // inside, to the outside
			"base/home/p/abs":  filepath.Join(base, "out"), // inside, absolute, to the outside
			"base/home/dang":   filepath.Join(vaultIn, "new"),
			"base/out/in":      "../home/p", // outside, into the tree
			"base/out/v":       vaultOut,
			"base/out/chain":   "../home/p/link/f",
			"base/out/dang":    "newfile",
			"base/loop":        "loop",
		}
		for l, text := range links {
			tr.link(l, text)
		}
		target := filepath.Join(base, rel)
		if target != base && !strings.HasPrefix(target, base+"/") {
			return // the fuzzer may only aim inside the scratch tree
		}
		tg, err := Walk(target, Options{Home: filepath.Join(base, "home"), Confirmed: confirm, Create: true, DirMode: 0o700})
		if err == nil {
			if tg.Shared != "" && !confirm {
				t.Errorf("followed the inside link %s without confirmation", tg.Shared)
			}
			if werr := tg.Write([]byte("fuzz\n"), Perm{New: 0o600}); werr == nil {
				real, rerr := filepath.EvalSymlinks(tg.Dir)
				if rerr != nil || real != tg.Dir {
					t.Errorf("wrote in %s, which is not a physical directory (%s, %v)", tg.Dir, real, rerr)
				}
				allowed := []string{base, vaultOut}
				if confirm {
					allowed = append(allowed, vaultIn)
				}
				ok := false
				for _, a := range allowed {
					if tg.Dir == a || strings.HasPrefix(tg.Dir, a+"/") {
						ok = true
					}
				}
				if !ok {
					t.Errorf("wrote %s/%s, outside the trees", tg.Dir, tg.Name)
				}
			}
			tg.Close()
		}
		if !confirm {
			entries, _ := os.ReadDir(vaultIn)
			if len(entries) != 1 || tr.read("vault-in/f") != "vault\n" {
				t.Errorf("%q: the directory behind the inside link changed: %v", rel, entries)
			}
		}
		for l, text := range links {
			tr.mustLink(l, text)
		}
		noTemps(t, tr.base)
	})
}
