package commands

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentkit/charter/core/fsys"
)

// bigSkills is how many skills the cancelled applies project: enough that
// writing them takes long enough for a signal to land mid-run.
const bigSkills = 2000

// writeSkills writes n skills into root's library, their text naming gen
// so that a second generation changes every projected file.
func writeSkills(t *testing.T, root string, n int, gen string) {
	t.Helper()
	for i := range n {
		name := fmt.Sprintf("s%04d", i)
		dir := filepath.Join(root, "skills", name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		md := "---\nname: " + name + "\ndescription: skill " + name + "\n---\nUse " + name + ", " + gen + ".\n"
		if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(md), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// filesUnder is every regular file under dir with its bytes.
func filesUnder(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		data, err := os.ReadFile(p)
		out[p] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// noTemps fails for any temporary file or staged folder of charter left
// under dirs.
func noTemps(t *testing.T, dirs ...string) {
	t.Helper()
	for _, dir := range dirs {
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if _, ok := fsys.TempOf(d.Name()); ok {
				t.Errorf("a temporary entry is left: %s", p)
			}
			return err
		})
	}
}

// wholeJSON fails for a .json file under dirs that does not parse: one a
// stopped run left half-written.
func wholeJSON(t *testing.T, dirs ...string) {
	t.Helper()
	for _, dir := range dirs {
		for p, data := range filesUnder(t, dir) {
			if strings.HasSuffix(p, ".json") && !json.Valid([]byte(data)) {
				t.Errorf("%s is not whole JSON: %q", p, data)
			}
		}
	}
}

// oldOrNew fails for a file of mid that is neither its old bytes nor its
// new ones (half-written), and for an old file mid lost that apply keeps.
func oldOrNew(t *testing.T, old, mid, new map[string]string) {
	t.Helper()
	for p, m := range mid {
		if o, ok := old[p]; ok && o == m {
			continue
		}
		if n, ok := new[p]; !ok || n != m {
			t.Errorf("%s is neither as it was nor as apply writes it: %q", p, m)
		}
	}
	for p := range old {
		if _, ok := mid[p]; !ok {
			if _, kept := new[p]; kept {
				t.Errorf("%s was removed by the stopped run", p)
			}
		}
	}
}

// checkTellsTruth runs `apply --check --json` and returns a func that,
// given what a finished apply wrote, fails for each file the check
// called current that differs from it, or outdated that equals it.
func checkTellsTruth(t *testing.T, run func(args ...string) (int, string, string), dir string) func(new map[string]string) {
	t.Helper()
	mid := filesUnder(t, dir)
	code, out, errs := run("apply", "--check", "--json")
	if code != 0 && code != int(ExitCheckFailed) {
		t.Fatalf("apply --check: exit %d\n%s", code, errs)
	}
	var rep struct {
		Targets, Files []struct{ Path, State string }
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("apply --check --json: %v\n%s", err, out)
	}
	return func(new map[string]string) {
		outdated := 0
		for _, f := range append(rep.Targets, rep.Files...) {
			m, ok := mid[f.Path]
			same := ok && m == new[f.Path]
			if same != (f.State == "current") {
				t.Errorf("apply --check said %s of %s, on disk the same as apply writes: %v", f.State, f.Path, same)
			}
			if !same {
				outdated++
			}
		}
		if (outdated > 0) != (code == int(ExitCheckFailed)) {
			t.Errorf("apply --check exit %d with %d file(s) not as apply writes them", code, outdated)
		}
	}
}

// SIGINT to a real `charter apply` once it has started writing a big
// library stops it: exit 1 saying it stopped, no temporary file anywhere,
// each file as it was or whole as apply writes it, a check that tells the
// truth, and a second apply that finishes. Once on a fresh home, once over
// a home an earlier apply filled.
func TestApplySIGINTLeavesNothingHalfWritten(t *testing.T) {
	bin := buildCharter(t)
	w := newWorld(t)
	claude := filepath.Join(w.home, ".claude")
	run := func(args ...string) (int, string, string) {
		cmd := exec.Command(bin, append([]string{"--config-root", w.root}, args...)...)
		var out, errb bytes.Buffer
		cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = w.home, w.env(), &out, &errb
		cmd.Run()
		return cmd.ProcessState.ExitCode(), out.String(), errb.String()
	}
	for _, gen := range []string{"first", "second"} {
		t0 := time.Now()
		writeSkills(t, w.root, bigSkills, gen)
		t.Logf("library written in %v", time.Since(t0))
		old := filesUnder(t, w.home)
		cmd := exec.Command(bin, "--config-root", w.root, "apply")
		var errb bytes.Buffer
		cmd.Dir, cmd.Env, cmd.Stderr = w.home, w.env(), &errb
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		waitWriting(t, claude, old, cmd)
		if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
			t.Fatal(err)
		}
		sent := time.Now()
		cmd.Wait()
		t.Logf("%s apply stopped %v after SIGINT", gen, time.Since(sent))
		if code := cmd.ProcessState.ExitCode(); code != int(ExitRuntime) || !strings.Contains(errb.String(), "stopped (SIGINT received)") {
			t.Fatalf("%s apply after SIGINT: exit %d, want 1 saying it stopped\n%s", gen, code, errb.String())
		}
		noTemps(t, w.home, w.root)
		wholeJSON(t, w.home, w.root)
		mid := filesUnder(t, w.home)
		truth := checkTellsTruth(t, run, w.home)
		t0 = time.Now()
		if code, _, errs := run("apply"); code != 0 {
			t.Fatalf("%s: apply after the stopped one: exit %d\n%s", gen, code, errs)
		}
		t.Logf("the apply after it in %v", time.Since(t0))
		new := filesUnder(t, w.home)
		oldOrNew(t, old, mid, new)
		truth(new)
		if code, _, errs := run("apply", "--check"); code != 0 {
			t.Fatalf("%s: apply --check after the finished apply: exit %d\n%s", gen, code, errs)
		}
		noTemps(t, w.home, w.root)
	}
}

// waitWriting returns once apply has begun writing under dir: a
// temporary entry of charter's there, or a file changed from old. It
// fails when the process ends first (the library was too small to catch
// it mid-run).
func waitWriting(t *testing.T, dir string, old map[string]string, cmd *exec.Cmd) {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(time.Millisecond) {
		if writing(dir, old) {
			return
		}
		if cmd.ProcessState != nil || time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("apply never started writing before it ended")
		}
	}
}

// writing reports whether a temporary entry is in dir (or one level
// down) or any file directly under dir's subfolders differs from old.
func writing(dir string, old map[string]string) bool {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if _, ok := fsys.TempOf(e.Name()); ok {
			return true
		}
		if !e.IsDir() {
			continue
		}
		sub, _ := os.ReadDir(filepath.Join(dir, e.Name()))
		for _, s := range sub {
			if _, ok := fsys.TempOf(s.Name()); ok {
				return true
			}
			p := filepath.Join(dir, e.Name(), s.Name(), "SKILL.md")
			if data, err := os.ReadFile(p); err == nil && old[p] != string(data) {
				return true
			}
		}
	}
	return false
}
