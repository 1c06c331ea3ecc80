package sources

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/content"
	"github.com/agentkit/charter/core/fsys"
)

// Cache is charter's copy of every source it took: one folder per URL
// under $XDG_CACHE_HOME/charter/sources/ (else ~/.cache/…), holding a bare
// repository (git/), the trees taken (trees/COMMIT[-PATHHASH]/, files
// only, never a work tree) and the commit each ref had at the last fetch
// (fetched.json). Every project that pins the same commit reads one tree.
type Cache struct {
	Sys  *core.System
	Root string
	git  *Git // found on first use: reading a cached tree needs no git
}

// OpenCache returns the cache of sys's user.
func OpenCache(sys *core.System) (*Cache, error) {
	base := strings.TrimSpace(sys.Getenv("XDG_CACHE_HOME"))
	if base == "" || !sys.Paths.IsAbs(base) {
		home, err := sys.Home()
		if err != nil {
			return nil, err
		}
		base = sys.Paths.Join(home, ".cache")
	}
	return &Cache{Sys: sys, Root: sys.Paths.Join(base, "charter", "sources")}, nil
}

func (c *Cache) gitOf() (*Git, error) {
	if c.git == nil {
		g, err := FindGit(c.Sys)
		if err != nil {
			return nil, err
		}
		c.git = g
	}
	return c.git, nil
}

func short(s string, n int) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])[:n]
}

// entryDir is the folder of one URL.
func (c *Cache) entryDir(url string) string { return c.Sys.Paths.Join(c.Root, short(url, 24)) }

// TreeDir is where the tree of p is kept.
func (c *Cache) TreeDir(p Pin) string {
	name := p.Commit
	if p.Path != "" {
		name += "-" + short(p.Path, 12)
	}
	return c.Sys.Paths.Join(c.entryDir(p.URL), "trees", name)
}

// sourceError names the source in a failure of its fetch or its tree.
func sourceError(d Decl, e *core.Error) error {
	e.Msg = fmt.Sprintf("source %s (%s): %s", d.Name, d.URL, e.Msg)
	return e
}

// repo makes the URL's bare repository when missing and runs fn on it
// under its lock, so that two charters never fetch into it at once.
func (c *Cache) repo(ctx context.Context, url string, fn func(g *Git, dir string) error) error {
	g, err := c.gitOf()
	if err != nil {
		return err
	}
	dir := c.Sys.Paths.Join(c.entryDir(url), "git")
	if err := c.Sys.Fs.MkdirAll(c.entryDir(url), 0o700); err != nil {
		return fmt.Errorf("make charter's source cache %s: %w", c.entryDir(url), err)
	}
	return c.Sys.WithLock(dir, func() error {
		if _, err := c.Sys.Fs.Stat(c.Sys.Paths.Join(dir, "HEAD")); err != nil {
			if err := g.initBare(ctx, dir); err != nil {
				return err
			}
		}
		return fn(g, dir)
	})
}

// Take fetches d's ref and takes its tree: the pin an add or an update
// writes into the lock. Nothing is written outside the cache.
func (c *Cache) Take(ctx context.Context, d Decl) (Pin, error) {
	var p Pin
	err := c.repo(ctx, d.URL, func(g *Git, dir string) error {
		commit, err := g.fetch(ctx, dir, d.URL, d.RefOrHead())
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			return sourceError(d, core.Errorf(core.CodeNotFound, "cannot fetch %s: %v; check the URL, the ref and your access to the repository", d.RefOrHead(), err))
		}
		c.noteFetched(d, commit)
		p = Pin{Decl: d, Commit: commit}
		p.Tree, err = c.extract(ctx, g, dir, p)
		return err
	})
	return p, err
}

// Ensure returns the folder holding p's tree, exactly as pinned: from the
// cache when its files hash to p.Tree, else taken again from the cached
// repository, else fetched (a missing cache; a commit the remote no longer
// has, or a remote out of reach, is an error naming the source). A tree
// that hashes otherwise than the lock says is refused.
func (c *Cache) Ensure(ctx context.Context, p Pin) (string, error) {
	dir := c.TreeDir(p)
	if h, err := c.HashDir(ctx, dir); err == nil && h == p.Tree {
		return dir, nil
	} else if ctx.Err() != nil {
		return "", ctx.Err()
	}
	err := c.repo(ctx, p.URL, func(g *Git, repo string) error {
		if g.hasCommit(ctx, repo, p.Commit) != nil {
			if _, err := g.fetch(ctx, repo, p.URL, p.Commit); ctx.Err() != nil {
				return ctx.Err()
			} else if err != nil {
				return sourceError(p.Decl, core.Errorf(core.CodeNotFound, "the pinned commit %s is not in charter's cache and cannot be fetched (%v): reach the remote once (network, VPN, access), or if the commit is gone from it, run `charter sources update %s` to pin what the ref names now",
					p.Commit, err, p.Name))
			}
		}
		h, err := c.extract(ctx, g, repo, p)
		if err != nil {
			return err
		}
		if h != p.Tree {
			return sourceError(p.Decl, core.Errorf(core.CodeMalformedContent, "the tree of commit %s hashes to %s, but sources.lock pins %s: the lock was edited or the history was rewritten under the same commit name, so charter takes nothing from it; review the source, then run `charter sources update %s` to pin what you reviewed",
				p.Commit, h, p.Tree, p.Name))
		}
		return nil
	})
	return dir, err
}

// ErrNotCached is a pinned tree missing from the cache where the reader
// may not fetch (the hub, MCP, doctor).
var ErrNotCached = &core.Error{Kind: core.CodeNotFound, Msg: "not in charter's cache yet"}

// Cached reports whether p's tree is in the cache as pinned, without git.
// A cancelled ctx answers false: the caller checks ctx.
func (c *Cache) Cached(ctx context.Context, p Pin) bool {
	h, err := c.HashDir(ctx, c.TreeDir(p))
	return err == nil && h == p.Tree
}

// extract writes p's tree into the cache (replacing a copy that no longer
// hashes right) and returns the tree's hash, computed over the bytes it
// wrote. A tree over the library's caps, with a link that leaves it or
// with a name that is no plain path is refused before a byte is written.
func (c *Cache) extract(ctx context.Context, g *Git, repo string, p Pin) (string, error) {
	es, ok, err := g.list(ctx, repo, p.Commit, p.Path)
	if ctx.Err() != nil {
		return "", ctx.Err()
	}
	if err != nil {
		return "", sourceError(p.Decl, core.Errorf(core.CodeInternal, "%v", err))
	}
	if !ok {
		return "", sourceError(p.Decl, core.Errorf(core.CodeNotFound, "commit %s has no folder %q: give --path the folder that holds rules/, skills/, commands/ and subagents/", short8(p.Commit), p.Path))
	}
	if err := check(p.Decl, es); err != nil {
		return "", err
	}
	final := c.TreeDir(p)
	trees := c.Sys.Paths.Dir(final)
	if err := c.Sys.Fs.MkdirAll(trees, 0o700); err != nil {
		return "", fmt.Errorf("make charter's source cache %s: %w", trees, err)
	}
	tmp, err := afero.TempDir(c.Sys.Fs, trees, ".take-")
	if err != nil {
		return "", err
	}
	defer c.Sys.Fs.RemoveAll(tmp)
	var sums []string
	err = g.blobs(ctx, repo, es, func(i int, data []byte) error {
		e := es[i]
		sums = append(sums, line(e.mode, e.path, data))
		to := c.Sys.Paths.Join(tmp, e.path)
		if err := c.Sys.Fs.MkdirAll(c.Sys.Paths.Dir(to), 0o755); err != nil {
			return err
		}
		if e.mode == "120000" {
			t := string(data)
			if to := path.Join(path.Dir(e.path), t); strings.HasPrefix(t, "/") || strings.ContainsAny(t, "\\\x00") || to == ".." || strings.HasPrefix(to, "../") {
				return sourceError(p.Decl, core.Errorf(core.CodeOutsideProject, "%s is a link to %s, out of the source's tree: a source is read like a repository, confined to its tree, so charter takes nothing from it; put the file itself there", e.path, t))
			}
			l, ok := c.Sys.Fs.(afero.Linker)
			if !ok {
				return fmt.Errorf("this file system cannot hold the link %s", e.path)
			}
			return l.SymlinkIfPossible(string(data), to)
		}
		mode := fs.FileMode(0o644)
		if e.mode == "100755" {
			mode = 0o755
		}
		return afero.WriteFile(c.Sys.Fs, to, data, mode)
	})
	if core.ErrorCode(err) == core.CodeOutsideProject {
		return "", err
	}
	if ctx.Err() != nil {
		return "", ctx.Err() // the half-taken tree goes with tmp
	}
	if err != nil {
		return "", sourceError(p.Decl, core.Errorf(core.CodeInternal, "take commit %s into the cache: %v", short8(p.Commit), err))
	}
	h := sumOf(sums)
	if h != p.Tree && p.Tree != "" {
		return h, nil // the caller refuses it; the cache keeps no wrong tree
	}
	_ = c.Sys.Fs.RemoveAll(final)
	if err := c.Sys.Fs.Rename(tmp, final); err != nil {
		if hd, herr := c.HashDir(ctx, final); herr != nil || hd != h { // another charter took it meanwhile
			return "", fmt.Errorf("keep the tree of %s in %s: %w", p.Name, final, err)
		}
	}
	return h, nil
}

func short8(commit string) string { return commit[:min(12, len(commit))] }

// check refuses a tree before it is read: over the library's caps (as a
// content folder is), a file over the cap of one source file, a name that
// is not a plain relative path, a link that leads out of the tree.
func check(d Decl, es []entry) error {
	if len(es) > content.MaxLibraryFiles {
		return sourceError(d, core.Errorf(core.CodeLibraryTooLarge, "the tree holds %d files, more than the %d charter reads of a library: point --path at the folder that holds the items", len(es), content.MaxLibraryFiles))
	}
	var total int64
	for _, e := range es {
		total += e.size
		for _, seg := range strings.Split(e.path, "/") {
			if seg == "" || seg == "." || seg == ".." || strings.ContainsAny(seg, "\\\x00") {
				return sourceError(d, core.Errorf(core.CodeOutsideProject, "the tree holds a file named %q, which is no plain path: charter takes nothing from it", e.path))
			}
		}
		if e.size > fsys.KindContent.Max() {
			return sourceError(d, core.Errorf(core.CodeLibraryTooLarge, "%s holds %d bytes, more than the %d MiB charter reads of one source file", e.path, e.size, fsys.KindContent.Max()>>20))
		}
	}
	if total > content.MaxLibraryBytes {
		return sourceError(d, core.Errorf(core.CodeLibraryTooLarge, "the tree holds %d MiB, more than the %d MiB charter reads of a library: point --path at the folder that holds the items", total>>20, content.MaxLibraryBytes>>20))
	}
	return nil
}

// line is one file's part of a tree's hash.
func line(mode, p string, data []byte) string {
	sum := sha256.Sum256(data)
	return mode + " " + p + "\x00" + hex.EncodeToString(sum[:]) + "\n"
}

func sumOf(lines []string) string {
	slices.Sort(lines)
	h := sha256.New()
	for _, l := range lines {
		h.Write([]byte(l))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// HashDir is the hash of the tree kept in dir, computed as extract
// computes it: every file and link under it, dotfiles included. A
// cancelled ctx stops it between two files.
func (c *Cache) HashDir(ctx context.Context, dir string) (string, error) {
	sums, err := c.fileSums(ctx, dir)
	if err != nil {
		return "", err
	}
	lines := make([]string, 0, len(sums))
	for _, l := range sums {
		lines = append(lines, l)
	}
	return sumOf(lines), nil
}

// fileSums is each file's line of the hash of the tree in dir, by path.
func (c *Cache) fileSums(ctx context.Context, dir string) (map[string]string, error) {
	lst, ok := c.Sys.Fs.(afero.Lstater)
	rl, ok2 := c.Sys.Fs.(afero.LinkReader)
	if !ok || !ok2 {
		return nil, errors.New("this file system has no links")
	}
	if fi, _, err := lst.LstatIfPossible(dir); err != nil || !fi.IsDir() {
		return nil, fs.ErrNotExist
	}
	sums := map[string]string{}
	var walk func(rel string) error
	walk = func(rel string) error {
		f, err := c.Sys.Fs.Open(c.Sys.Paths.Join(dir, rel))
		if err != nil {
			return err
		}
		names, err := f.Readdirnames(-1)
		f.Close()
		if err != nil {
			return err
		}
		for _, n := range names {
			if err := ctx.Err(); err != nil {
				return err
			}
			r := path.Join(rel, n)
			p := c.Sys.Paths.Join(dir, r)
			fi, _, err := lst.LstatIfPossible(p)
			if err != nil {
				return err
			}
			switch m := fi.Mode(); {
			case m&fs.ModeSymlink != 0:
				t, err := rl.ReadlinkIfPossible(p)
				if err != nil {
					return err
				}
				sums[r] = line("120000", r, []byte(t))
			case m.IsDir():
				if err := walk(r); err != nil {
					return err
				}
			case m.IsRegular():
				data, err := c.Sys.ReadFile(p, fsys.KindContent)
				if err != nil {
					return err
				}
				mode := "100644"
				if m&0o100 != 0 {
					mode = "100755"
				}
				sums[r] = line(mode, r, data)
			default:
				sums[r] = line("other", r, nil)
			}
		}
		return nil
	}
	return sums, walk("")
}

// fetchedFile records the commit each ref had at the last fetch of a URL,
// so that a list can say whether an update exists without fetching.
const fetchedFile = "fetched.json"

func (c *Cache) noteFetched(d Decl, commit string) {
	m := c.fetched(d.URL)
	m[d.RefOrHead()] = commit
	data, _ := json.Marshal(m)
	_ = c.Sys.WriteAtomic(c.Sys.Paths.Join(c.entryDir(d.URL), fetchedFile), data)
}

func (c *Cache) fetched(url string) map[string]string {
	m := map[string]string{}
	data, err := c.Sys.ReadFile(c.Sys.Paths.Join(c.entryDir(url), fetchedFile), fsys.KindState)
	if err == nil {
		_ = json.Unmarshal(data, &m)
	}
	return m
}

// Latest is the commit d's ref had at the last fetch ("" : never fetched).
func (c *Cache) Latest(d Decl) string { return c.fetched(d.URL)[d.RefOrHead()] }
