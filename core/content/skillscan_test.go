package content_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core/content"
	"github.com/agentkit/charter/core/coretest"
)

// loadBoth loads f's library one folder after another (GOMAXPROCS 1) and
// from several goroutines, and fails unless both give the same items,
// files and error.
func loadBoth(t *testing.T, f *fixture) (*content.Library, error) {
	t.Helper()
	describe := func(lib *content.Library, err error) string {
		if err != nil {
			return "error: " + err.Error()
		}
		var b strings.Builder
		for _, it := range lib.Items {
			fmt.Fprintf(&b, "%s %s %s:", it.Layer, it.Kind, it.Name)
			for _, file := range it.Files {
				fmt.Fprintf(&b, " %s(%v,%d)", file.Rel, file.Exec, len(file.Data))
			}
			b.WriteString("\n")
		}
		return b.String()
	}
	old := runtime.GOMAXPROCS(1)
	one := describe(f.load(t))
	runtime.GOMAXPROCS(max(old, 4))
	defer runtime.GOMAXPROCS(old)
	lib, err := f.load(t)
	if many := describe(lib, err); many != one {
		t.Fatalf("listed at once:\n%s\none after another:\n%s", many, one)
	}
	return lib, err
}

// Skill folders are listed from several goroutines at once and taken in
// order: the same items, files, problems and first error as one after
// another, in the project (each goroutine's reader confined) and the scope.
func TestSkillsListedAtOnceAsOneByOne(t *testing.T) {
	f := newFixture(t)
	charter := filepath.Join(f.project, ".charter")
	for _, dir := range []string{charter, f.scope} {
		for i := range 48 {
			folder := skill(t, dir, fmt.Sprintf("s%02d", i), i%4, int64(i))
			coretest.WriteFile(t, filepath.Join(folder, "deep", "er", "x.md"), "x")
			coretest.WriteFile(t, filepath.Join(folder, ".hidden"), "never read")
		}
	}
	lib, err := loadBoth(t, f)
	if err != nil || len(lib.Items) != 96 || len(lib.Items[47].Files) != 4 {
		t.Fatalf("%v", err)
	}

	// Problems in many folders: every one named, in order.
	for i := 5; i < 48; i += 7 {
		os.Remove(filepath.Join(charter, "skills", fmt.Sprintf("s%02d", i), "SKILL.md"))
	}
	for i := 3; i < 48; i += 11 {
		if err := os.Symlink("/etc/passwd", filepath.Join(f.scope, "skills", fmt.Sprintf("s%02d", i), "link")); err != nil {
			t.Fatal(err)
		}
	}
	coretest.WriteFile(t, filepath.Join(charter, "skills", "Not A Name", "SKILL.md"), "x")
	_, err = loadBoth(t, f)
	if !strings.Contains(err.Error(), "s40: has no SKILL.md") || !strings.Contains(err.Error(), "s47/link: is a link") {
		t.Fatalf("%v", err)
	}

	// Two folders over their own cap: the first in order is the error,
	// whichever goroutine reached the other first.
	for _, i := range []int{30, 9} {
		for n := range content.MaxSkillFiles {
			coretest.WriteFile(t, filepath.Join(charter, "skills", fmt.Sprintf("s%02d", i), "bulk", fmt.Sprint(n)), "")
		}
	}
	_, err = loadBoth(t, f)
	wantCap(t, err, "skill folder "+filepath.Join(charter, "skills", "s09")+" ")
}

// A library over its caps in its skills is listed little further than
// where it passes them, not whole: 2,000 folders of 6 files each pass
// the 10,000 files near the 1,667th.
func TestSkillsStopListingPastTheCaps(t *testing.T) {
	f, mem := memFixture(t)
	for i := range 2000 {
		for _, name := range []string{"SKILL.md", "a", "b", "c", "d", "e"} {
			if err := afero.WriteFile(mem, filepath.Join(f.scope, "skills", fmt.Sprintf("s%04d", i), name), []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	counting := &openCounter{Fs: mem}
	f.m.Sys.Fs = counting
	_, err := f.load(t)
	wantCap(t, err, "more than 10000 files", "passed at "+filepath.Join(f.scope, "skills", "s1666"))
	if n := counting.skillDirs.Load(); n < 1666 || n > 1666+int64(runtime.GOMAXPROCS(0))+1 {
		t.Errorf("%d skill folders listed, past the cap at the 1,667th", n)
	}
}

// openCounter counts the skill folders opened (to be listed).
type openCounter struct {
	afero.Fs
	skillDirs atomic.Int64
}

func (c *openCounter) Open(name string) (afero.File, error) {
	if filepath.Base(filepath.Dir(name)) == "skills" {
		c.skillDirs.Add(1)
	}
	return c.Fs.Open(name)
}

// A folder that is no item (here: no SKILL.md) counts for no cap, as one
// after another: all 1,000 are listed and named, though their files would
// pass the library's 10,000.
func TestSkillProblemsCountForNoCap(t *testing.T) {
	f, mem := memFixture(t)
	for i := range 1000 {
		for n := range 12 {
			if err := afero.WriteFile(mem, filepath.Join(f.scope, "skills", fmt.Sprintf("s%04d", i), fmt.Sprint(n)), []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	_, err := f.load(t)
	var me *content.MalformedError
	if !errors.As(err, &me) || len(me.Problems) != 1000 {
		t.Fatalf("%.300v", err)
	}
}

// A folder is listed by its handle, whatever its entries are named: a
// ".probe" link out of the project (a name the listing once looked up)
// is a dotfile like any other, skipped.
func TestListingLooksUpNoNameInTheFolder(t *testing.T) {
	f := newFixture(t)
	charter := filepath.Join(f.project, ".charter")
	coretest.WriteFile(t, filepath.Join(charter, "rules", "r.md"), rule("r", "minimal"))
	skill(t, charter, "s", 1, 1)
	for _, dir := range []string{"rules", "skills", "skills/s"} {
		if err := os.Symlink(f.m.Dir, filepath.Join(charter, dir, ".probe")); err != nil {
			t.Fatal(err)
		}
	}
	lib, err := f.load(t)
	if err != nil || len(lib.Items) != 2 {
		t.Fatalf("%v", err)
	}
}
