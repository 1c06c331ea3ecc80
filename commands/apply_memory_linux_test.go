package commands

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"testing"
)

// apply holds a library within the caps once, not once more for the
// files already on disk: a plan keeps what it learns of each target's
// bytes (there, the same, its sha256) and drops the bytes at once. Before
// that, a second apply of a 240 MiB library peaked at 755 MB. The binary
// runs as a child; its peak is its own rusage (TestLibraryMemory).
func TestApplyMemory(t *testing.T) {
	bin := buildCharter(t)
	w := newWorld(t)
	if err := makeSkills(filepath.Join(w.root, "skills"), 10, 3, 8<<20); err != nil {
		t.Fatal(err)
	}
	const maxKiB = 400 << 10
	for _, round := range []string{"first", "no change"} {
		cmd := exec.Command(bin, "--config-root", w.root, "apply", "--agent", "claude")
		var out, errb bytes.Buffer
		cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = w.home, w.env(), &out, &errb
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s apply: %v\n%s%s", round, err, out.String(), errb.String())
		}
		peak := maxRSS(t, cmd.ProcessState)
		t.Logf("%s apply: peak %d MiB", round, peak>>10)
		if peak >= maxKiB {
			t.Errorf("%s apply: peak resident memory %d KiB, want under %d KiB", round, peak, maxKiB)
		}
	}
}
