// Package agenttest runs the real agents — Claude Code, Codex, Gemini CLI,
// Copilot CLI, OpenCode, Qwen Code, Kilo, Cline and Continue, installed
// from npm at pinned versions by scripts/agents.sh — against a mock of their model APIs on loopback, after
// charter projected its content, and reads what each agent sent the model:
// what an agent loaded is what it sends (SPEC §12 decisions of 2026-11-27:
// the real agent is the truth).
//
// Every file here is a test file: nothing in charter imports this package.
package agenttest

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// agentsDir is where scripts/agents.sh installed the agents: the folder
// holding node_modules/.bin. CHARTER_AGENTS names it; without it a test
// skips, except under CI=true, where a missing agent fails.
func agentsDir(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("CHARTER_AGENTS")
	if dir == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("CHARTER_AGENTS is not set: .ci/run installs the agents with scripts/agents.sh")
		}
		t.Skip("CHARTER_AGENTS is not set (scripts/agents.sh installs the agents)")
	}
	return dir
}

// bin is the path of an agent's command (claude, codex, gemini, copilot).
func bin(t testing.TB, name string) string {
	t.Helper()
	p := filepath.Join(agentsDir(t), "node_modules", ".bin", name)
	if _, err := os.Stat(p); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not installed in CHARTER_AGENTS: %v", name, err)
		}
		t.Skipf("%s is not installed in CHARTER_AGENTS: %v", name, err)
	}
	return p
}

var (
	charterOnce sync.Once
	charterBin  string
	charterErr  error
	charterOut  []byte
)

// charter is the charter binary, built once per test process.
func charter(t testing.TB) string {
	t.Helper()
	charterOnce.Do(func() {
		dir, err := os.MkdirTemp("", "charter-agenttest-")
		if err != nil {
			charterErr = err
			return
		}
		charterBin = filepath.Join(dir, "charter")
		charterOut, charterErr = exec.Command("go", "build", "-o", charterBin, "github.com/agentkit/charter/cmd/charter").CombinedOutput()
	})
	if charterErr != nil {
		t.Fatalf("go build charter: %v\n%s", charterErr, charterOut)
	}
	return charterBin
}

// Request is one request an agent sent the mock.
type Request struct {
	Method, Path string
	Header       http.Header
	Body         []byte
}

// Mock is a model API on loopback. Each protocol file registers its
// routes in routes (by path prefix); the mock records every request and
// answers from the request alone, keeping no state between requests.
type Mock struct {
	URL  string // http://127.0.0.1:PORT
	mu   sync.Mutex
	reqs []Request
	srv  *http.Server
}

// route answers one protocol's requests: m is the mock, r the request,
// body its bytes already read.
type route func(m *Mock, w http.ResponseWriter, r *http.Request, body []byte)

// routes are the protocols' paths, longest prefix first wins.
var routes = map[string]route{}

func newMock(t testing.TB) *Mock {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	m := &Mock{URL: "http://" + ln.Addr().String()}
	m.srv = &http.Server{Handler: http.HandlerFunc(m.serve), ReadHeaderTimeout: 10 * time.Second}
	go m.srv.Serve(ln)
	t.Cleanup(func() { m.srv.Close() })
	return m
}

func (m *Mock) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	m.mu.Lock()
	m.reqs = append(m.reqs, Request{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body})
	m.mu.Unlock()
	best := ""
	for p := range routes {
		if strings.Contains(r.URL.Path, p) && len(p) > len(best) {
			best = p
		}
	}
	if best == "" {
		http.NotFound(w, r)
		return
	}
	routes[best](m, w, r, body)
}

// Requests are the requests so far, in order.
func (m *Mock) Requests() []Request {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]Request(nil), m.reqs...)
}

// Sent is every request body joined: what the agent told the model.
func (m *Mock) Sent() string {
	var b bytes.Buffer
	for _, r := range m.Requests() {
		b.Write(r.Body)
		b.WriteByte('\n')
	}
	return b.String()
}

// run runs a command with env in dir, at most five minutes (Kilo takes
// over two on a loaded machine), and returns its
// combined output; a failure to start or a timeout fails the test.
func run(t testing.TB, dir string, env []string, name string, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("%s %s: timed out\n%s", name, strings.Join(args, " "), out)
	}
	return string(out), err
}

// world is a throwaway home, charter config root and project for one test.
type world struct {
	home, root, project string
}

func newWorld(t testing.TB) world {
	t.Helper()
	d := t.TempDir()
	w := world{home: filepath.Join(d, "home"), root: filepath.Join(d, "home", ".agentkit", "charter"), project: filepath.Join(d, "project")}
	for _, p := range []string{w.home, w.root, filepath.Join(w.project, ".git")} {
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

// env is a clean environment for charter and the agents in w: no variable
// of the developer's leaks in, but PATH (node) and what extra adds.
func (w world) env(extra ...string) []string {
	return append([]string{"HOME=" + w.home, "PATH=" + os.Getenv("PATH"), "AGENTKIT_POLICY_FILE=" + filepath.Join(w.home, "no-policy.yaml"),
		"TERM=dumb", "NO_COLOR=1", "CI=" + os.Getenv("CI")}, extra...)
}

// write writes a file below base, making its folders.
func write(t testing.TB, base, rel, data string) {
	t.Helper()
	p := filepath.Join(base, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// count is how many times s occurs in the text the agent sent the model.
func count(sent, s string) int { return strings.Count(sent, s) }
