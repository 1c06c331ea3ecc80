package content_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentkit/charter/core/content"
	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/fsys"
)

// watchedCache is a machine and a content cache under an inotify watch,
// closed with the test.
func watchedCache(t *testing.T) (*coretest.Machine, *content.Cache) {
	t.Helper()
	m := coretest.New(t)
	w := fsys.NewDirWatch(m.Sys.Fs)
	if w == nil {
		t.Fatal("no inotify on linux")
	}
	t.Cleanup(func() { w.Close() })
	return m, &content.Cache{Watch: w}
}

// Under a watch the library is kept while nothing changes, with no stamp
// taken, and read again after every kind of change under the layers,
// including one inside a folder made after the first read.
func TestCacheWatched(t *testing.T) {
	m, c := watchedCache(t)
	dir := t.TempDir()
	layers := []content.Layer{{Name: "scope", Dir: dir, Level: "user"}}
	write := func(rel, data string) func() {
		return func() { coretest.WriteFile(t, filepath.Join(dir, rel), data) }
	}
	rule := func(body string) string { return "---\ndescription: A rule.\n---\n" + body + "\n" }
	write("rules/a.md", rule("One."))()
	load := func() *content.Library {
		t.Helper()
		lib, err := c.Load(context.Background(), m.Sys, layers)
		if err != nil {
			t.Fatal(err)
		}
		return lib
	}
	prev := load()
	if load() != prev {
		t.Fatal("an unchanged library was read again")
	}
	steps := []struct {
		name   string
		change func()
	}{
		{"edit in place, same size", write("rules/a.md", rule("Two."))},
		{"new rule", write("rules/b.md", rule("Bee."))},
		{"remove", func() { os.Remove(filepath.Join(dir, "rules/b.md")) }},
		{"new kind folder", write("commands/ship.md", "---\ndescription: Ship.\n---\nGo.\n")},
		{"new skill folder", write("skills/go/SKILL.md", "---\nname: go\ndescription: Go.\n---\nGo.\n")},
		{"edit inside the new folder", write("skills/go/SKILL.md", "---\nname: go\ndescription: Go!\n---\nGo.\n")},
		{"a file beside the skill", write("skills/go/notes.md", "notes")},
		{"chmod", func() { os.Chmod(filepath.Join(dir, "rules/a.md"), 0o600) }},
	}
	for _, s := range steps {
		s.change()
		next := load()
		if next == prev {
			t.Fatalf("%s: the library was not read again", s.name)
		}
		if load() != next {
			t.Fatalf("%s: the library read after the change was not kept", s.name)
		}
		prev = next
	}
	// A link among the sources: never kept, the target's edits unseen.
	target := filepath.Join(t.TempDir(), "x.md")
	coretest.WriteFile(t, target, rule("X."))
	if err := os.Symlink(target, filepath.Join(dir, "rules/x.md")); err != nil {
		t.Fatal(err)
	}
	if l := load(); load() == l {
		t.Fatal("a library with a linked source was kept")
	}
}

// A watch that cannot watch (closed, out of watches) leaves the cache to
// stamp its files, and reads stay fresh.
func TestCacheUnwatchable(t *testing.T) {
	m := coretest.New(t)
	dir := t.TempDir()
	layers := []content.Layer{{Name: "scope", Dir: dir, Level: "user"}}
	w := fsys.NewDirWatch(m.Sys.Fs)
	w.Close()
	c := &content.Cache{Watch: w}
	for i, body := range []string{"One.", "Three."} {
		coretest.WriteFile(t, filepath.Join(dir, "rules/a.md"), "---\ndescription: A rule.\n---\n"+body+"\n")
		lib, err := c.Load(context.Background(), m.Sys, layers)
		if err != nil {
			t.Fatal(err)
		}
		items := lib.Effective("", content.Selection{})
		if len(items) != 1 || !strings.Contains(string(items[0].Body), body) {
			t.Fatalf("step %d: %d items, want one saying %q", i, len(items), body)
		}
	}
}

// A cancelled load under a watch reports the cancellation and leaves the
// cache watching: the next load reads, and the one after it is kept.
func TestCacheWatchedCancelled(t *testing.T) {
	m, c := watchedCache(t)
	dir := t.TempDir()
	coretest.WriteFile(t, filepath.Join(dir, "rules", "a.md"), "---\ndescription: A rule.\n---\nOne.\n")
	layers := []content.Layer{{Name: "scope", Dir: dir, Level: "user"}}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if lib, err := c.Load(ctx, m.Sys, layers); !errors.Is(err, context.Canceled) || lib != nil {
		t.Fatalf("cancelled load = %v, %v; want context.Canceled and no library", lib, err)
	}
	lib, err := c.Load(context.Background(), m.Sys, layers)
	if err != nil || lib == nil {
		t.Fatalf("load after a cancelled one: %v", err)
	}
	if again, _ := c.Load(context.Background(), m.Sys, layers); again != lib {
		t.Error("after a cancelled load the cache no longer keeps an unchanged library")
	}
}
