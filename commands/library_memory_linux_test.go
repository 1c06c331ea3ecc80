package commands

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A library of sparse files takes a few KB of disk and gigabytes as
// listed: before the caps, `skills list` on one skill of 150 files of
// 8 MiB peaked at 1.2 GB. Each skin runs here as the real binary, a child
// of the test, and its peak resident memory is the child's own, read from
// its rusage once it has exited (Linux: ru_maxrss, in KiB); the test's
// memory is not in it.
func TestLibraryMemory(t *testing.T) {
	bin := buildCharter(t)
	const mib8 = 8 << 20
	for _, c := range []struct {
		name   string
		make   func(skills string) error
		listed bool  // within the caps: the skins list it
		maxKiB int64 // the peak each skin must stay under
	}{
		// One skill folder over its 32 MiB: refused from its listing.
		{"OneSkill150Files", func(d string) error { return makeSkills(d, 1, 150, mib8) }, false, 400 << 10},
		// 40 skills of 24 MiB, each within its cap, 960 MiB together:
		// refused at the library's 256 MiB.
		{"ManySkills", func(d string) error { return makeSkills(d, 40, 3, mib8) }, false, 400 << 10},
		// 240 MiB, within every cap: listed by name, so a skin holds far
		// less than the library (reading it would take more than 240 MiB).
		{"WithinCaps", func(d string) error { return makeSkills(d, 10, 3, mib8) }, true, 128 << 10},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t)
			if err := c.make(filepath.Join(w.root, "skills")); err != nil {
				t.Fatal(err)
			}
			check := func(skin string, peak int64) {
				t.Logf("%s: peak %d MiB", skin, peak>>10)
				if peak <= 0 || peak >= c.maxKiB {
					t.Errorf("%s: peak resident memory %d KiB, want under %d KiB", skin, peak, c.maxKiB)
				}
			}
			check("skills list", cliPeak(t, bin, w, c.listed))
			check("MCP skills_list", mcpPeak(t, bin, w, c.listed))
			check("hub /api/v1/content", hubPeak(t, bin, w, c.listed))
		})
	}
}

// maxRSS is an exited child's peak resident memory in KiB.
func maxRSS(t *testing.T, ps *os.ProcessState) int64 {
	t.Helper()
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		t.Fatalf("no rusage for the child: %T", ps.SysUsage())
	}
	return ru.Maxrss
}

func cliPeak(t *testing.T, bin string, w world, listed bool) int64 {
	cmd := exec.Command(bin, "--config-root", w.root, "skills", "list")
	var out, errb bytes.Buffer
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = w.home, w.env(), &out, &errb
	err := cmd.Run()
	if code := cmd.ProcessState.ExitCode(); listed != (code == 0) {
		t.Fatalf("skills list: exit %d (%v)\n%s%s", code, err, out.String(), errb.String())
	}
	if listed && !strings.Contains(out.String(), "s09 ") {
		t.Errorf("skills list:\n%s", out.String())
	}
	if !listed && (cmd.ProcessState.ExitCode() != 1 || !strings.Contains(errb.String(), "more than")) {
		t.Errorf("skills list: exit %d\n%s", cmd.ProcessState.ExitCode(), errb.String())
	}
	return maxRSS(t, cmd.ProcessState)
}

func mcpPeak(t *testing.T, bin string, w world, listed bool) int64 {
	p := startMCP(t, bin, w.home, w.env(), []string{w.project}, "--config-root", w.root, "mcp")
	res := p.call(t, "skills_list", map[string]any{})
	if listed {
		if items, _ := fields(t, res)["items"].([]any); len(items) != 10 {
			t.Errorf("skills_list: %d items", len(items))
		}
	} else if code, msg := errorOf(t, res); code != "library_too_large" {
		t.Errorf("skills_list: %s %s", code, msg)
	}
	p.close(t)
	return maxRSS(t, p.cmd.ProcessState)
}

func hubPeak(t *testing.T, bin string, w world, listed bool) int64 {
	cmd := exec.Command(bin, "--config-root", w.root, "serve", "--idle-timeout", "0")
	var errb bytes.Buffer
	cmd.Dir, cmd.Env, cmd.Stderr = w.home, w.env(), &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill() // only when a check below fails first
	var disc struct{ Port int }
	for deadline := time.Now().Add(30 * time.Second); disc.Port == 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("serve did not announce itself in 30s\n%s", errb.String())
		}
		if data, err := os.ReadFile(filepath.Join(w.root, "local-server.json")); err == nil {
			json.Unmarshal(data, &disc)
		}
	}
	tok, err := os.ReadFile(filepath.Join(w.root, "local-server.token"))
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodGet, fmt.Sprintf("http://127.0.0.1:%d/api/v1/content", disc.Port), nil)
	req.Header.Set("Authorization", "Bearer "+strings.TrimSpace(string(tok)))
	resp, err := (&http.Client{Timeout: 60 * time.Second}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	want := http.StatusOK
	if !listed {
		want = http.StatusConflict
	}
	if resp.StatusCode != want || (!listed && !bytes.Contains(body, []byte(`"library_too_large"`))) {
		t.Errorf("GET /api/v1/content: %s\n%.500s", resp.Status, body)
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("serve: %v\n%s", err, errb.String())
	}
	return maxRSS(t, cmd.ProcessState)
}
