package content_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/content"
	"github.com/agentkit/charter/core/coretest"
)

// memFixture is newFixture's layout in memory, for the caps that take ten
// thousand files (written to a disk, they take seconds).
func memFixture(t *testing.T) (*fixture, afero.Fs) {
	fs := afero.NewMemMapFs()
	m := coretest.New(t, coretest.Fs(fs))
	f := &fixture{m: m, root: filepath.Join(m.Home, ".agentkit", "charter")}
	f.scope = filepath.Join(f.root, "profiles", "claude", "work")
	f.project = filepath.Join(m.Dir, "repo")
	f.sc = core.Scope{Kind: core.ScopeProfile, Path: f.scope, Root: core.ConfigRoot{Path: f.root, Source: core.SourceDefault}}
	if err := fs.MkdirAll(filepath.Join(f.project, ".charter"), 0o755); err != nil {
		t.Fatal(err)
	}
	return f, fs
}

const mib8 = 8 << 20 // a content source at its own cap

// skill writes a skill folder under dir/skills/name with n other files of
// size bytes each, made sparse (Truncate): 8 MiB of them take no disk.
func skill(t testing.TB, dir, name string, n int, size int64) string {
	t.Helper()
	folder := filepath.Join(dir, "skills", name)
	coretest.WriteFile(t, filepath.Join(folder, "SKILL.md"), "---\nname: "+name+"\ndescription: d\n---\nUse it.\n")
	for i := range n {
		f, err := os.Create(filepath.Join(folder, fmt.Sprintf("f%03d.bin", i)))
		if err == nil {
			err = f.Truncate(size)
			f.Close()
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return folder
}

// wantCap fails unless err is library_too_large saying each of parts.
func wantCap(t *testing.T, err error, parts ...string) {
	t.Helper()
	if core.ErrorCode(err) != core.CodeLibraryTooLarge {
		t.Fatalf("want library_too_large, got %v", err)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("the error does not say %q:\n%v", p, err)
		}
	}
}

func TestSkillFolderFileCap(t *testing.T) {
	f := newFixture(t)
	// SKILL.md and 255 others: the cap exactly, read.
	dir := skill(t, f.scope, "many", content.MaxSkillFiles-1, 10)
	lib, err := f.load(t)
	if err != nil || len(lib.Items) != 1 || len(lib.Items[0].Files) != content.MaxSkillFiles-1 {
		t.Fatalf("%v", err)
	}
	// One more in a subfolder is one too many.
	coretest.WriteFile(t, filepath.Join(dir, "sub", "one-more.txt"), "x")
	_, err = f.load(t)
	wantCap(t, err, "skill folder "+dir+" ", "more than 256 files", "split it")
}

func TestSkillFolderByteCap(t *testing.T) {
	f := newFixture(t)
	// 3 sparse files of 8 MiB: 24 MiB as listed, under 32 MiB.
	ok := skill(t, f.scope, "ok", 3, mib8)
	names, err := content.LoadNames(context.Background(), f.m.Sys, f.sc, nil, "")
	if err != nil || len(names.Items) != 1 {
		t.Fatalf("%v", err)
	}
	for _, file := range names.Items[0].Files {
		if file.Data != nil {
			t.Errorf("LoadNames read %s", file.Rel)
		}
	}
	lib, err := f.load(t)
	if err != nil || len(lib.Items[0].Files) != 3 || len(lib.Items[0].Files[0].Data) != mib8 {
		t.Fatalf("Load did not read the files: %v", err)
	}
	// A fourth: 32 MiB and SKILL.md, over the cap though the disk holds a few KB.
	coretest.WriteFile(t, filepath.Join(ok, "f003.bin"), "")
	if err := os.Truncate(filepath.Join(ok, "f003.bin"), mib8); err != nil {
		t.Fatal(err)
	}
	_, err = f.load(t)
	wantCap(t, err, "skill folder "+ok+" ", "more than 32 MiB", "ls -lRS "+ok)
	_, err = content.LoadNames(context.Background(), f.m.Sys, f.sc, nil, "")
	wantCap(t, err, ok) // a list refuses what apply refuses
}

// The library's bytes are counted from the listings before anything is
// read: the project's command that leads out of the project (an error
// when read) is never reached.
func TestLibraryByteCapBeforeReading(t *testing.T) {
	f := newFixture(t)
	outside := filepath.Join(f.m.Dir, "elsewhere", "x.md")
	coretest.WriteFile(t, outside, rule("x", "minimal"))
	charter := filepath.Join(f.project, ".charter")
	os.MkdirAll(filepath.Join(charter, "commands"), 0o755)
	if err := os.Symlink(outside, filepath.Join(charter, "commands", "x.md")); err != nil {
		t.Fatal(err)
	}
	if _, err := f.load(t); core.ErrorCode(err) != core.CodeOutsideProject {
		t.Fatalf("the link alone: %v", err)
	}
	// 11 skills of 24 MiB each, every one under its own cap: 264 MiB.
	for i := range 11 {
		skill(t, charter, fmt.Sprintf("s%02d", i), 3, mib8)
	}
	_, err := f.load(t)
	wantCap(t, err, "more than 256 MiB", "passed at "+filepath.Join(charter, "skills", "s10"), "in the project folder "+charter)
}

func TestLibraryFileCap(t *testing.T) {
	f, fs := memFixture(t)
	// 5,000 rules in the scope and 5,001 in the project: no folder over
	// its listing cap, the library over its count.
	for dir, n := range map[string]int{f.scope: 5000, filepath.Join(f.project, ".charter"): 5001} {
		for i := range n {
			if err := afero.WriteFile(fs, filepath.Join(dir, "rules", fmt.Sprintf("r%05d.md", i)), []byte("Do it.\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	_, err := f.load(t)
	wantCap(t, err, "more than 10000 files", "passed at "+filepath.Join(f.project, ".charter", "rules", "r05000.md"))
}

// A folder of more names than a library holds is refused from its
// listing (dotfiles count: they are listed, if never read).
func TestFolderEntriesCap(t *testing.T) {
	f, fs := memFixture(t)
	rules := filepath.Join(f.scope, "rules")
	for i := range content.MaxFolderEntries + 1 {
		if err := afero.WriteFile(fs, filepath.Join(rules, fmt.Sprintf(".n%05d", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, err := f.load(t)
	wantCap(t, err, rules+" holds more than 10000 entries")
	fs.Remove(filepath.Join(rules, ".n00000"))
	if lib, err := f.load(t); err != nil || len(lib.Items) != 0 {
		t.Fatalf("at the cap: %v", err)
	}
}
