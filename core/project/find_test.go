package project

import (
	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/profile"

	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/spf13/afero"
)

// statCounter counts Stat calls and fails any attempt to open a file or
// list a directory: discovery must learn everything from stat.
type statCounter struct {
	afero.Fs
	stats atomic.Int64
	t     testing.TB
}

func (c *statCounter) Stat(name string) (os.FileInfo, error) {
	c.stats.Add(1)
	return c.Fs.Stat(name)
}

func (c *statCounter) Open(name string) (afero.File, error) {
	c.t.Errorf("discovery opened %s", name)
	return c.Fs.Open(name)
}

func (c *statCounter) OpenFile(name string, flag int, perm os.FileMode) (afero.File, error) {
	c.t.Errorf("discovery opened %s", name)
	return c.Fs.OpenFile(name, flag, perm)
}

func touch(t testing.TB, fs afero.Fs, p string) {
	t.Helper()
	if err := afero.WriteFile(fs, p, []byte("rules:\n  tier: full\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func deepDir(base string, levels int) string {
	p := base
	for i := range levels {
		p += "/d" + string(rune('a'+i%26))
	}
	return p
}

func TestFindProjectDiscovery(t *testing.T) {
	type want struct {
		dir    string
		files  []string
		source string
	}
	cases := []struct {
		name  string
		files []string // created before the run
		dirs  []string
		wd    string
		env   []string
		flag  *string
		no    bool
		want  *want
	}{
		{
			name:  "10 levels deep",
			files: []string{"/home/u/repo/.charter/settings.yaml"},
			wd:    deepDir("/home/u/repo", 10),
			want:  &want{"/home/u/repo", []string{"/home/u/repo/.charter/settings.yaml"}, core.SourceDiscovered},
		},
		{
			name:  "working directory itself, both files",
			files: []string{"/r/.charter/settings.yaml", "/r/.charter/settings.local.yaml"},
			wd:    "/r",
			want:  &want{"/r", []string{"/r/.charter/settings.yaml", "/r/.charter/settings.local.yaml"}, core.SourceDiscovered},
		},
		{
			name:  "local file alone makes a project",
			files: []string{"/r/.charter/settings.local.yaml"},
			wd:    "/r/src",
			want:  &want{"/r", []string{"/r/.charter/settings.local.yaml"}, core.SourceDiscovered},
		},
		{
			name:  "nearest wins",
			files: []string{"/r/.charter/settings.yaml", "/r/sub/.charter/settings.local.yaml"},
			wd:    "/r/sub/x",
			want:  &want{"/r/sub", []string{"/r/sub/.charter/settings.local.yaml"}, core.SourceDiscovered},
		},
		{
			name:  "an empty .charter directory is not a project",
			files: []string{"/r/.charter/settings.yaml"},
			dirs:  []string{"/r/sub/.charter"},
			wd:    "/r/sub",
			want:  &want{"/r", []string{"/r/.charter/settings.yaml"}, core.SourceDiscovered},
		},
		{
			name:  "a directory named like the file is not a file",
			files: []string{"/r/.charter/settings.yaml"},
			dirs:  []string{"/r/sub/.charter/settings.yaml"},
			wd:    "/r/sub",
			want:  &want{"/r", []string{"/r/.charter/settings.yaml"}, core.SourceDiscovered},
		},
		{
			name:  "home is skipped",
			files: []string{"/home/u/.charter/settings.yaml"},
			wd:    "/home/u/code/x",
		},
		{
			name:  "home is skipped, the walk goes on above it",
			files: []string{"/home/u/.charter/settings.yaml", "/home/.charter/settings.yaml"},
			wd:    "/home/u/code",
			want:  &want{"/home", []string{"/home/.charter/settings.yaml"}, core.SourceDiscovered},
		},
		{
			name:  "home spelled with a trailing slash is still home",
			files: []string{"/home/u/.charter/settings.yaml"},
			env:   []string{"HOME=/home/u/"},
			wd:    "/home/u",
		},
		{
			name:  "root reached",
			files: []string{"/elsewhere/.charter/settings.yaml"},
			wd:    "/a/b/c",
		},
		{
			name:  "the root itself can be a project",
			files: []string{"/.charter/settings.yaml"},
			wd:    "/a/b",
			want:  &want{"/", []string{"/.charter/settings.yaml"}, core.SourceDiscovered},
		},
		{
			name:  "env beats discovery",
			files: []string{"/r/.charter/settings.yaml", "/p/.charter/settings.local.yaml"},
			env:   []string{"CHARTER_PROJECT_DIR=/p/"},
			wd:    "/r",
			want:  &want{"/p", []string{"/p/.charter/settings.local.yaml"}, core.SourceEnv},
		},
		{
			name:  "flag beats env",
			files: []string{"/p/.charter/settings.yaml"},
			dirs:  []string{"/f"},
			env:   []string{"CHARTER_PROJECT_DIR=/p"},
			flag:  str("/f"),
			wd:    "/r",
			want:  &want{"/f", []string{}, core.SourceFlag},
		},
		{
			name:  "relative flag",
			files: []string{"/r/p/.charter/settings.yaml"},
			flag:  str(" p/ "),
			wd:    "/r",
			want:  &want{"/r/p", []string{"/r/p/.charter/settings.yaml"}, core.SourceFlag},
		},
		{
			name:  "tilde in env",
			files: []string{"/home/u/p/.charter/settings.yaml"},
			env:   []string{"CHARTER_PROJECT_DIR=~/p"},
			wd:    "/",
			want:  &want{"/home/u/p", []string{"/home/u/p/.charter/settings.yaml"}, core.SourceEnv},
		},
		{
			name:  "explicit home is allowed",
			files: []string{"/home/u/.charter/settings.yaml"},
			env:   []string{"CHARTER_PROJECT_DIR=/home/u"},
			wd:    "/",
			want:  &want{"/home/u", []string{"/home/u/.charter/settings.yaml"}, core.SourceEnv},
		},
		{
			name:  "blank env counts as unset",
			files: []string{"/r/.charter/settings.yaml"},
			env:   []string{"CHARTER_PROJECT_DIR= \t"},
			wd:    "/r/x",
			want:  &want{"/r", []string{"/r/.charter/settings.yaml"}, core.SourceDiscovered},
		},
		{
			name:  "no-project",
			files: []string{"/r/.charter/settings.yaml"},
			env:   []string{"CHARTER_PROJECT_DIR=/r"},
			no:    true,
			wd:    "/r",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fs := afero.NewMemMapFs()
			for _, f := range c.files {
				touch(t, fs, f)
			}
			for _, d := range c.dirs {
				if err := fs.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if err := fs.MkdirAll(c.wd, 0o755); err != nil {
				t.Fatal(err)
			}
			env := c.env
			if !slices.ContainsFunc(env, func(v string) bool { return strings.HasPrefix(v, "HOME=") }) {
				env = append(env, "HOME=/home/u")
			}
			s := testSystem(fs, c.wd, env...)
			got, err := Find(s, c.flag, c.no)
			if err != nil {
				t.Fatal(err)
			}
			if c.want == nil {
				if got != nil {
					t.Fatalf("want no project, got %+v", got)
				}
				return
			}
			if got == nil || got.Dir != c.want.dir || !slices.Equal(got.Files, c.want.files) || got.Source != c.want.source {
				t.Fatalf("got %+v, want %+v", got, c.want)
			}
			if got.SettingsPath() != c.want.dir+"/.charter/settings.yaml" && c.want.dir != "/" {
				t.Errorf("SettingsPath %s", got.SettingsPath())
			}
			if !strings.HasSuffix(got.LocalPath(), "/.charter/settings.local.yaml") || !strings.HasPrefix(got.LocalPath(), c.want.dir) {
				t.Errorf("LocalPath %s", got.LocalPath())
			}
		})
	}
}

func TestFindProjectErrors(t *testing.T) {
	fs := afero.NewMemMapFs()
	touch(t, fs, "/file")
	cases := []struct {
		name string
		env  []string
		flag *string
		no   bool
		msg  string
	}{
		{"blank flag", nil, str("  "), false, "--project-dir is blank"},
		{"empty flag", nil, str(""), false, "--project-dir is blank"},
		{"blank flag beats env", []string{"CHARTER_PROJECT_DIR=/"}, str(" "), false, "--project-dir is blank"},
		{"missing flag dir", nil, str("/nope"), false, "--project-dir /nope: no such directory"},
		{"missing env dir", []string{"CHARTER_PROJECT_DIR=/nope"}, nil, false, "CHARTER_PROJECT_DIR /nope: no such directory"},
		{"flag names a file", nil, str("/file"), false, "--project-dir /file: not a directory"},
		{"flag and no-project", nil, str("/"), true, "contradict"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := testSystem(fs, "/", append(c.env, "HOME=/home/u")...)
			p, err := Find(s, c.flag, c.no)
			var ue *core.Error
			if !errors.As(err, &ue) || ue.Code() != core.CodeUsage || !strings.Contains(ue.Msg, c.msg) {
				t.Fatalf("got %+v, %v; want a usage error saying %q", p, err, c.msg)
			}
		})
	}

	s := core.NewSystem(fs, []string{"HOME=/h"}, nil, func() (string, error) { return "", os.ErrNotExist }, profile.Guard)
	if _, err := Find(s, nil, false); err == nil || !strings.Contains(err.Error(), "--no-project") {
		t.Fatalf("unknown working directory: %v", err)
	}
}

// Discovery costs one stat per level plus two where .charter is, and
// never opens a file.
func TestFindProjectStatCount(t *testing.T) {
	for _, levels := range []int{0, 1, 10, 40} {
		mem := afero.NewMemMapFs()
		touch(t, mem, "/p/.charter/settings.yaml")
		wd := deepDir("/p", levels)
		if err := mem.MkdirAll(wd, 0o755); err != nil {
			t.Fatal(err)
		}
		fs := &statCounter{Fs: mem, t: t}
		s := testSystem(fs, wd, "HOME=/home/u")
		p, err := Find(s, nil, false)
		if err != nil || p == nil || p.Dir != "/p" {
			t.Fatalf("%d levels: %+v %v", levels, p, err)
		}
		if n, max := fs.stats.Load(), int64(levels+1+2); n > max {
			t.Errorf("%d levels: %d stats, want at most %d", levels, n, max)
		}

		// No project at all: one stat per directory up to the root.
		fs2 := &statCounter{Fs: afero.NewMemMapFs(), t: t}
		s2 := testSystem(fs2, wd, "HOME=/home/u")
		if p, err := Find(s2, nil, false); err != nil || p != nil {
			t.Fatalf("%d levels, no project: %+v %v", levels, p, err)
		}
		if n, max := fs2.stats.Load(), int64(levels+2); n > max {
			t.Errorf("%d levels, no project: %d stats, want at most %d", levels, n, max)
		}
	}
}

func TestProjectRootForCreate(t *testing.T) {
	cases := []struct {
		name  string
		files []string
		dirs  []string
		wd    string
		env   []string
		flag  *string
		want  string
		msg   string // a usage error containing this
	}{
		{name: "git directory", dirs: []string{"/r/.git", "/r/a/b"}, wd: "/r/a/b", want: "/r"},
		{name: "git file (worktree)", files: []string{"/w/.git"}, dirs: []string{"/w/x"}, wd: "/w/x", want: "/w"},
		{name: "nearest repository", dirs: []string{"/r/.git", "/r/sub/.git", "/r/sub/x"}, wd: "/r/sub/x", want: "/r/sub"},
		{name: "flag", dirs: []string{"/r/.git", "/f"}, wd: "/r", flag: str("/f"), want: "/f"},
		{name: "env", dirs: []string{"/r/.git", "/e"}, wd: "/r", env: []string{"CHARTER_PROJECT_DIR=/e"}, want: "/e"},
		{name: "outside a repository", dirs: []string{"/x/y"}, wd: "/x/y", msg: "not inside a git repository: run inside one or give --project-dir DIR"},
		{name: "home repository", dirs: []string{"/home/u/.git", "/home/u/notes"}, wd: "/home/u/notes", msg: "home directory /home/u"},
		{name: "blank flag", dirs: []string{"/r/.git"}, wd: "/r", flag: str(""), msg: "--project-dir is blank"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fs := afero.NewMemMapFs()
			for _, f := range c.files {
				touch(t, fs, f)
			}
			for _, d := range append(c.dirs, c.wd) {
				if err := fs.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			s := testSystem(fs, c.wd, append(c.env, "HOME=/home/u")...)
			got, err := RootForCreate(s, c.flag)
			if c.msg != "" {
				var ue *core.Error
				if !errors.As(err, &ue) || ue.Code() != core.CodeUsage || !strings.Contains(ue.Msg, c.msg) {
					t.Fatalf("got %q, %v; want a usage error saying %q", got, err, c.msg)
				}
				return
			}
			if err != nil || got != c.want {
				t.Fatalf("got %q, %v; want %q", got, err, c.want)
			}
		})
	}
}

// On the real file system: a .charter reached through a symbolic link in
// the working directory's path is found by the path as typed (no
// resolution), and a file where a directory is expected is not an error.
func TestFindProjectOsFs(t *testing.T) {
	base := t.TempDir()
	repo := filepath.Join(base, "repo")
	if err := os.MkdirAll(filepath.Join(repo, ".charter"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, ".charter", "settings.local.yaml"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(base, ".charter"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	deep := filepath.Join(repo, "a", "b")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(base, "link")
	if err := os.Symlink(deep, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	s := testSystem(afero.NewOsFs(), filepath.Join(repo, "a", "b"), "HOME="+base)
	p, err := Find(s, nil, false)
	if err != nil || p == nil || p.Dir != repo || len(p.Files) != 1 {
		t.Fatalf("got %+v, %v", p, err)
	}
	// From the link, the walk goes up the link's own path: base, not repo.
	s = testSystem(afero.NewOsFs(), link, "HOME=/nonexistent")
	p, err = Find(s, str(filepath.Join(base, "file-not-dir")), false)
	var ue *core.Error
	if !errors.As(err, &ue) || ue.Code() != core.CodeUsage {
		t.Fatalf("flag naming a missing path: %+v %v", p, err)
	}
	if p, err = Find(s, nil, false); err != nil || p != nil {
		t.Fatalf("from the link: %+v %v", p, err)
	}
}

func str(s string) *string { return &s }
