package server

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core/fsys"
)

// A value built while a file changes is never trusted, and a value built
// with the watches in place is served without rebuilding until something
// changes.
func TestWatchedCache(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, []byte("1"), 0o644); err != nil {
		t.Fatal(err)
	}
	osfs := afero.NewOsFs()
	c := &filesCache[string]{watch: fsys.NewDirWatch(osfs)}
	if c.watch == nil {
		t.Fatal("no inotify on linux")
	}
	defer c.watch.Close()
	builds := 0
	build := func() (string, []string, error) {
		builds++
		b, _ := os.ReadFile(file) // gone reads as empty
		return string(b), []string{file}, nil
	}
	get := func() string {
		v, err := c.get(osfs, "", build)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	get()
	get() // the second build is the first under watch
	n := builds
	for range 100 {
		if get() != "1" {
			t.Fatal("wrong value")
		}
	}
	if builds != n {
		t.Fatalf("%d rebuilds with nothing changed", builds-n)
	}
	for i, c := range []struct {
		change func() error
		seen   bool
	}{
		{func() error { return os.WriteFile(file, []byte("2"), 0o644) }, true},         // in place
		{func() error { return os.Chmod(file, 0o600) }, true},                          // mode only
		{func() error { return os.WriteFile(file+".new", []byte("3"), 0o644) }, false}, // a sibling: not used
		{func() error { return os.Rename(file+".new", file) }, true},                   // replaced
		{func() error { return os.Remove(file) }, true},                                // gone
		{func() error { return os.WriteFile(file, []byte("4"), 0o644) }, true},         // back
	} {
		n := builds
		if err := c.change(); err != nil {
			t.Fatal(err)
		}
		get()
		if (builds != n) != c.seen {
			t.Fatalf("change %d: rebuilt %v, want %v", i, builds != n, c.seen)
		}
	}
	// A write during the build: the value read may be the old one, so it
	// must not outlive the next request.
	write := true
	inner := build
	build = func() (string, []string, error) {
		v, p, err := inner()
		if write {
			write = false
			os.WriteFile(file, []byte("5"), 0o644)
		}
		return v, p, err
	}
	os.WriteFile(file, []byte("4b"), 0o644) // so that the next get builds
	if got := get(); got != "4b" {
		t.Fatalf("got %q, want the value read during the build", got)
	}
	if got := get(); got != "5" {
		t.Fatalf("stale after a write during the build: %q", got)
	}
}

// A PATH entry that is a link: a binary in its target is seen, and so is
// the link moved to another directory.
func TestDetectThroughLinks(t *testing.T) {
	d := t.TempDir()
	for _, p := range []string{"a", "b"} {
		if err := os.Mkdir(filepath.Join(d, p), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(d, "bin")
	if err := os.Symlink("a", link); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(d, "b", "agent-switch"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, "PATH="+link)
	r := e.start(t, 0)
	installed := func() bool {
		rp := r.do("GET", "api/v1/wizard/detect-agent-switch", "")
		if rp.status != 200 {
			t.Fatalf("%d %s", rp.status, rp.body)
		}
		return rp.json(t)["installed"].(bool)
	}
	for range 3 {
		if installed() {
			t.Fatal("installed before the binary is on PATH")
		}
	}
	tmp := filepath.Join(d, "bin.new")
	if err := os.Symlink("b", tmp); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, link); err != nil {
		t.Fatal(err)
	}
	if !installed() {
		t.Error("a link moved to a directory with the binary is not seen")
	}
	if err := os.Chmod(filepath.Join(d, "b", "agent-switch"), 0o644); err != nil {
		t.Fatal(err)
	}
	if installed() {
		t.Error("chmod -x in the link's target is not seen")
	}
}

// A watch that cannot add its directories (out of inotify watches, say)
// leaves the cache to stat its files, and reads stay fresh.
func TestUnwatchableFallsBackToStat(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	osfs := afero.NewOsFs()
	w := fsys.NewDirWatch(osfs)
	w.Close() // every add now fails
	c := &filesCache[string]{watch: w, now: func() time.Time { return time.Now().Add(time.Hour) }}
	build := func() (string, []string, error) {
		b, _ := os.ReadFile(file)
		return string(b), []string{file}, nil
	}
	for i, want := range []string{"1", "2", "3"} {
		if err := os.WriteFile(file, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		for range 2 {
			if got, err := c.get(osfs, "", build); err != nil || got != want {
				t.Fatalf("step %d: %q %v, want %q", i, got, err, want)
			}
		}
	}
	if !c.unwatchable.Load() {
		t.Fatal("the cache still tries to watch")
	}
}
