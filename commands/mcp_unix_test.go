//go:build unix

package commands

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentkit/charter/core/coretest"
)

// patience bounds every wait below: long enough for a loaded machine,
// and only ever reached when something is broken.
const patience = 2 * time.Minute

// waitUntil polls cond until it holds, or fails the test after patience.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(patience)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("still waiting, after %s, for %s", patience, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// readPID reads a pid the gate wrote, 0 while the file is not there.
func readPID(t *testing.T, path string) int {
	t.Helper()
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil || pid <= 0 {
		t.Fatalf("%s holds %q, not a pid", path, data)
	}
	return pid
}

// gone reports whether pid has ended: no such process, or a zombie that
// nothing has reaped yet (an orphan whose init does not reap still has
// its entry, though the process itself is dead).
func gone(pid int) bool {
	err := syscall.Kill(pid, 0)
	if errors.Is(err, syscall.ESRCH) {
		return true
	}
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		return false // no procfs: only ESRCH tells
	}
	stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return errors.Is(err, os.ErrNotExist) // reaped since kill(2) found it
	}
	// pid (comm) state …: comm may hold spaces and parentheses, the state
	// follows the last ")".
	i := bytes.LastIndexByte(stat, ')')
	return i >= 0 && i+2 < len(stat) && stat[i+2] == 'Z'
}

// A gates_run that the client cancels with notifications/cancelled, sent
// on the wire for that call's id, kills the gate's processes (the shell
// and the child it started), and the server goes on answering.
func TestMCPCancelKillsGate(t *testing.T) {
	bin := buildCharter(t)
	w := newWorld(t)
	// The gate's shell starts a child, records both pids (each file
	// renamed into place, so a pid is never read half written), and waits.
	// Both are in the process group the runner kills.
	const gate = `sleep 300 & echo $! > child.tmp && mv child.tmp child.pid; echo $$ > shell.tmp && mv shell.tmp shell.pid; wait`
	if err := os.MkdirAll(filepath.Join(w.project, ".charter"), 0o700); err != nil {
		t.Fatal(err)
	}
	coretest.WriteFile(t, filepath.Join(w.project, ".charter", "settings.yaml"), "gates:\n  tests:\n    command: '"+gate+"'\n")
	// The project's own command runs only once trusted (SPEC §13).
	trustProject(t, bin, w, w.project)
	p := startMCP(t, bin, w.home, w.env(), []string{w.project}, "--config-root", w.root, "mcp")

	params := &mcp.CallToolParams{Name: "gates_run", Arguments: map[string]any{"gates": []string{"tests"}}}
	params.SetProgressToken("gates-1")
	// The call's own context is cancelled only after the raw notification
	// below has done its work: that notification is what the server sees.
	type answer struct {
		res *mcp.CallToolResult
		err error
	}
	answered := make(chan answer, 1)
	callCtx, cancelCall := context.WithCancel(context.Background())
	defer cancelCall()
	go func() {
		res, err := p.cs.CallTool(callCtx, params)
		answered <- answer{res, err}
	}()

	var shell, child int
	waitUntil(t, "the gate to record its pids", func() bool {
		shell, child = readPID(t, filepath.Join(w.project, "shell.pid")), readPID(t, filepath.Join(w.project, "child.pid"))
		return shell != 0 && child != 0
	})
	// If the test fails before the cancellation works, the group must not
	// outlive it (the shell leads the group: its pid is the group's id).
	t.Cleanup(func() {
		if t.Failed() {
			syscall.Kill(-shell, syscall.SIGKILL)
		}
	})
	for _, pid := range []int{shell, child} {
		if gone(pid) {
			t.Fatalf("gate process %d is not running before the cancellation", pid)
		}
	}
	if pgid, err := syscall.Getpgid(child); err != nil || pgid != shell {
		t.Fatalf("the child's process group is %d (%v), want the shell's %d", pgid, err, shell)
	}

	// The run reported its start with the token given.
	select {
	case n := <-p.progress:
		if n.ProgressToken != "gates-1" || !strings.HasPrefix(n.Message, "tests: running") {
			t.Errorf("progress: %+v", n)
		}
	case <-time.After(patience):
		t.Fatal("no progress notification while the gate runs")
	}

	id := p.conn.lastCall(t, "tools/call")
	p.notify(t, "notifications/cancelled", map[string]any{"requestId": id.Raw(), "reason": "the user stopped it"})

	waitUntil(t, "the cancelled gate's processes to end", func() bool { return gone(shell) && gone(child) })
	// Nothing half-written: no temporary file, every JSON file whole.
	noTemps(t, w.home, w.root, w.project)
	wholeJSON(t, w.home, w.root, w.project)

	// The server is alive and answers the next request on the same session.
	st := fields(t, p.call(t, "status", nil))
	if st["workDir"] != w.project {
		t.Errorf("status after the cancellation: %v", st)
	}
	if got := fields(t, p.call(t, "settings_get", map[string]any{"key": "rules.tier"})); got["value"] != "full" {
		t.Errorf("settings_get after the cancellation: %v", got)
	}
	// MCP says a cancelled call gets no reply, and charter sends none: the
	// client's call ends only when its own context does (else the SDK's
	// client would wait for it on close).
	cancelCall()
	if a := <-answered; a.err == nil {
		t.Errorf("the cancelled call was answered: %s", coretest.ToolText(a.res))
	}
	if code := p.close(t); code != 0 {
		t.Errorf("exit code %d; stderr: %s", code, p.stderr)
	}
}

// `charter mcp` whose project-local settings file is a link to /dev/stdin
// used to read its own JSON-RPC stream as settings. The read is refused
// (the link leads out of the project; and stdin is a pipe, not a regular
// file, were it inside): each call answers with an error
// naming the file, and the next request is still there to be answered.
func TestMCPSettingsLinkedToStdin(t *testing.T) {
	bin := buildCharter(t)
	w := newWorld(t)
	mustDo(t, os.MkdirAll(filepath.Join(w.project, ".charter"), 0o755))
	coretest.WriteFile(t, filepath.Join(w.project, ".charter", "settings.yaml"), "rules:\n  tier: full\n")
	local := filepath.Join(w.project, ".charter", "settings.local.yaml")
	mustDo(t, os.Symlink("/dev/stdin", local))
	p := startMCP(t, bin, w.project, w.env(), nil, "mcp")
	for range 2 {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		res, err := p.cs.CallTool(ctx, &mcp.CallToolParams{Name: "settings_get", Arguments: map[string]any{"key": "rules.tier"}})
		cancel()
		if err != nil {
			t.Fatalf("settings_get: %v (it read its own input?)\nstderr: %s", err, p.stderr)
		}
		code, msg := errorOf(t, res)
		// A link out of the project is refused before it is opened: the
		// confinement speaks first (outside_project); either refusal will do.
		refused := code == "not_regular_file" && strings.Contains(msg, "not a regular file") ||
			code == "outside_project" && strings.Contains(msg, "leads out of the project")
		if !refused || !strings.Contains(msg, local) {
			t.Fatalf("error %s: %s", code, msg)
		}
	}
	if code := p.close(t); code != 0 {
		t.Fatalf("exit %d\nstderr: %s", code, p.stderr)
	}
}
