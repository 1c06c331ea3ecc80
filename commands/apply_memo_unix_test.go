//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package commands

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentkit/charter/core/coretest"
)

// memoProject is a project with rules, skills and commands in .charter/,
// applied by the real binary with its own cache folder.
type memoProject struct {
	bin, dir, cache string
	w               world
}

func newMemoProject(t *testing.T, rules int) *memoProject {
	return newSkillsProject(t, rules, 3)
}

// newSkillsProject is newMemoProject with its number of skills (each
// two output folders: itself and b) and commands.
func newSkillsProject(t *testing.T, rules, skills int) *memoProject {
	w := newWorld(t)
	p := &memoProject{bin: buildCharter(t), dir: w.project, cache: filepath.Join(w.dir, "cache"), w: w}
	src := filepath.Join(p.dir, ".charter")
	for i := range rules {
		coretest.WriteFile(t, filepath.Join(src, "rules", fmt.Sprintf("rule-%03d.md", i)),
			fmt.Sprintf("---\ndescription: rule %d\nglobs: [\"src/**/*.go\"]\n---\nFollow rule %d.\n", i, i))
	}
	for i := range skills {
		d := filepath.Join(src, "skills", fmt.Sprintf("skill-%d", i))
		coretest.WriteFile(t, filepath.Join(d, "SKILL.md"), fmt.Sprintf("---\nname: skill-%d\ndescription: skill %d\n---\nDo it.\n", i, i))
		coretest.WriteFile(t, filepath.Join(d, "b", "c.md"), "more\n")
		coretest.WriteFile(t, filepath.Join(src, "commands", fmt.Sprintf("cmd-%d.md", i)), "---\ndescription: a command\n---\nDo $ARGUMENTS.\n")
	}
	return p
}

// apply runs `apply --project` for claude (under a shell that sets limits
// when given) and returns its output.
func (p *memoProject) apply(t *testing.T, shell string) string {
	t.Helper()
	args := []string{"apply", "--project", "--project-dir", p.dir, "--agent", "claude"}
	cmd := exec.Command(p.bin, args...)
	if shell != "" {
		cmd = exec.Command("/bin/sh", append([]string{"-c", shell + `; exec "$0" "$@"`, p.bin}, args...)...)
	}
	var out, errb bytes.Buffer
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = p.dir, p.w.env("XDG_CACHE_HOME="+p.cache), &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("apply: %v\n%s%s", err, out.String(), errb.String())
	}
	return out.String() + errb.String()
}

// memo is the memo file's bytes ("" when there is none).
func (p *memoProject) memo(t *testing.T) string {
	files, _ := filepath.Glob(filepath.Join(p.cache, "charter", "plan", "*"))
	if len(files) != 1 {
		return ""
	}
	data, _ := os.ReadFile(files[0])
	return string(data)
}

// outputs is every file apply wrote in the project (the record left
// out), by path: its inode and mtime, which a write changes.
func (p *memoProject) outputs(t *testing.T) map[string]string {
	out := map[string]string{}
	filepath.Walk(p.dir, func(path string, fi os.FileInfo, err error) error {
		if err == nil && fi.IsDir() && (fi.Name() == ".charter" || fi.Name() == ".git") {
			return filepath.SkipDir
		}
		if err == nil && fi.Mode().IsRegular() && fi.Name() != "README.md" {
			st := fi.Sys().(*syscall.Stat_t)
			out[path] = fmt.Sprint(st.Ino, fi.ModTime().UnixNano())
		}
		return nil
	})
	return out
}

func touchAll(t *testing.T, root string, skip func(string) bool) {
	earlier := time.Now().Add(-time.Hour)
	filepath.Walk(root, func(path string, fi os.FileInfo, err error) error {
		if err == nil && fi.Mode().IsRegular() && !skip(path) {
			if err := os.Chtimes(path, earlier, earlier); err != nil {
				t.Fatal(err)
			}
		}
		return nil
	})
}

func changed(before, after map[string]string) []string {
	var out []string
	for p, v := range after {
		if before[p] != v {
			out = append(out, p)
		}
	}
	return out
}

// settle waits until every stamp taken so far is older than the racy
// window, so the next run may trust it (not a timed assertion).
func settleStamps() { time.Sleep(60 * time.Millisecond) }

// A no-change apply gives the last run's report again from its memo,
// writing nothing; touching every output or every source (same bytes)
// costs a plan, which still writes nothing and reports the same; a
// changed source rewrites its own files only.
func TestApplyMemo(t *testing.T) {
	p := newMemoProject(t, 12)
	settleStamps() // sources written within a clock tick of a run are not vouched for
	first := p.apply(t, "")
	if p.memo(t) == "" {
		t.Fatal("the first apply kept no memo")
	}
	want := strings.ReplaceAll(first, "written", "current")
	settleStamps()
	files, memo := p.outputs(t), p.memo(t)
	if got := p.apply(t, ""); got != want {
		t.Fatalf("replayed report differs:\n%s\nwant:\n%s", got, want)
	}
	if p.memo(t) != memo {
		t.Fatal("a no-change run planned again instead of using its memo")
	}
	os.RemoveAll(filepath.Join(p.cache, "charter", "plan"))
	if got := p.apply(t, ""); got != want {
		t.Fatalf("a planned no-change run reports otherwise than the memo:\n%s\nwant:\n%s", got, want)
	}
	if c := changed(files, p.outputs(t)); len(c) > 0 {
		t.Fatalf("no-change runs wrote %v", c)
	}

	settleStamps()
	touchAll(t, p.dir, func(path string) bool {
		return strings.Contains(path, "/.charter/") || strings.Contains(path, "/.git/")
	})
	files, memo = p.outputs(t), p.memo(t)
	if got := p.apply(t, ""); got != want {
		t.Fatalf("after touching every output:\n%s\nwant:\n%s", got, want)
	}
	if c := changed(files, p.outputs(t)); len(c) > 0 {
		t.Fatalf("after touching every output the run wrote %v", c)
	}
	if p.memo(t) == memo {
		t.Fatal("touched outputs were taken from the memo without a plan")
	}

	settleStamps()
	touchAll(t, filepath.Join(p.dir, ".charter"), func(path string) bool { return strings.HasSuffix(path, ".lock") })
	memo = p.memo(t)
	if got := p.apply(t, ""); got != want {
		t.Fatalf("after touching every source:\n%s\nwant:\n%s", got, want)
	}
	if c := changed(files, p.outputs(t)); len(c) > 0 {
		t.Fatalf("after touching every source the run wrote %v", c)
	}
	if p.memo(t) == memo {
		t.Fatal("touched sources were taken from the memo without a plan")
	}

	settleStamps()
	coretest.WriteFile(t, filepath.Join(p.dir, ".charter", "rules", "rule-003.md"), "---\ndescription: rule 3\nglobs: [\"src/**/*.go\"]\n---\nFollow rule 3 twice.\n")
	got := p.apply(t, "")
	rule := filepath.Join(p.dir, ".claude", "rules", "rule-003.md")
	if c := changed(files, p.outputs(t)); len(c) != 1 || c[0] != rule {
		t.Fatalf("a changed rule rewrote %v, want only %s\n%s", c, rule, got)
	}
	if data, _ := os.ReadFile(rule); !strings.Contains(string(data), "twice") {
		t.Fatalf("the changed rule's file holds %q", data)
	}
}

// A run's descriptors stay few whatever the library: under a limit of 32
// a no-change apply of 1,000 rules plans (its memo removed) and replays.
// (A run that writes still holds each output folder until its renames.)
func TestApplyFewDescriptors(t *testing.T) {
	p := newMemoProject(t, 1000)
	settleStamps()
	want := strings.ReplaceAll(p.apply(t, ""), "written", "current")
	settleStamps()
	os.RemoveAll(filepath.Join(p.cache, "charter", "plan"))
	if got := p.apply(t, "ulimit -n 32"); got != want {
		t.Fatalf("planned under a limit of 32 descriptors:\n%.600s\nwant:\n%.600s", got, want)
	}
	if p.memo(t) == "" {
		t.Fatal("the planned run kept no memo")
	}
	if got := p.apply(t, "ulimit -n 32"); got != want {
		t.Fatalf("replayed under a limit of 32 descriptors:\n%.600s", got)
	}
}

// A cold run writes 300 new folders under a limit of 32 descriptors (soft
// and hard): the folders it staged into are let go and walked to again.
// At 100 rules it never needs a descriptor numbered 64 or above (the
// limit refuses one), so the kernel never grows the process's table.
func TestApplyColdFewDescriptors(t *testing.T) {
	small := newSkillsProject(t, 100, 33)
	if got := small.apply(t, "ulimit -n 64"); strings.Count(got, "written") < 100 {
		t.Fatalf("a cold run of 100 rules under a limit of 64 descriptors:\n%.600s", got)
	}
	p := newSkillsProject(t, 100, 150)
	got := p.apply(t, "ulimit -n 32")
	if n := strings.Count(got, "written"); n < 300 {
		t.Fatalf("a cold run under a limit of 32 descriptors wrote %d files:\n%.600s", n, got)
	}
	for i := range 150 {
		f := filepath.Join(p.dir, ".claude", "skills", fmt.Sprintf("skill-%d", i), "b", "c.md")
		if data, err := os.ReadFile(f); err != nil || string(data) != "more\n" {
			t.Fatalf("%s: %q, %v", f, data, err)
		}
	}
}
