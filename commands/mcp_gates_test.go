package commands

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/mcpserver"
)

// cliJSON runs `bin args...` in dir with only environ and decodes the one
// JSON document it prints.
func cliJSON(t testing.TB, bin, dir string, environ []string, args ...string) map[string]any {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir, cmd.Env = dir, environ
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatalf("%v: %v", args, err)
	}
	var doc map[string]any
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		t.Fatalf("%v: stdout is not one JSON document: %v\n%s\nstderr: %s", args, err, stdout.Bytes(), stderr.Bytes())
	}
	return doc
}

// writeProject gives dir a .charter/settings.yaml holding yaml.
func writeProject(t testing.TB, dir, yaml string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, ".charter"), 0o700); err != nil {
		t.Fatal(err)
	}
	coretest.WriteFile(t, filepath.Join(dir, ".charter", "settings.yaml"), yaml)
}

// trustProject runs `charter trust` for dir: a project's own gate
// commands run only once trusted (SPEC §13).
func trustProject(t testing.TB, bin string, w world, dir string) {
	t.Helper()
	cmd := exec.Command(bin, "--config-root", w.root, "--project-dir", dir, "trust")
	cmd.Env = w.env()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("charter trust: %v\n%s", err, out)
	}
}

// ranIn reports the directory a `pwd > where.txt` gate ran in: the one
// whose where.txt names itself, of dirs; "" when none has one.
func ranIn(t testing.TB, dirs ...string) string {
	t.Helper()
	found := ""
	for _, d := range dirs {
		data, err := os.ReadFile(filepath.Join(d, "where.txt"))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		got, err1 := filepath.EvalSymlinks(strings.TrimSpace(string(data)))
		want, err2 := filepath.EvalSymlinks(d)
		if err1 != nil || err2 != nil || got != want {
			t.Fatalf("%s/where.txt names %q", d, data)
		}
		if found != "" {
			t.Fatalf("the gate ran in both %s and %s", found, d)
		}
		found = d
	}
	return found
}

// gates_run runs in the project the rest of `charter mcp` uses: the one
// --project-dir names, not the one found from the client's directory, and
// none under --no-project.
func testMCPGateDirectory(t *testing.T, bin string) {
	const gate = "gates:\n  tests:\n    command: pwd > where.txt\n"
	t.Run("ProjectDir", func(t *testing.T) {
		w := newWorld(t)
		pa, pb := filepath.Join(w.dir, "pa"), filepath.Join(w.dir, "pb")
		writeProject(t, pa, gate)
		trustProject(t, bin, w, pa)
		writeProject(t, pb, "rules:\n  tier: minimal\n") // a project of its own, without gates
		for _, roots := range [][]string{nil, {pb}} {
			for _, d := range []string{pa, pb} {
				os.Remove(filepath.Join(d, "where.txt"))
			}
			p := startMCP(t, bin, pb, w.env(), roots, "--config-root", w.root, "--project-dir", pa, "mcp")
			params := &mcp.CallToolParams{Name: "gates_run", Arguments: map[string]any{}}
			params.SetProgressToken("where")
			res, err := p.cs.CallTool(context.Background(), params)
			if err != nil {
				t.Fatal(err)
			}
			rep := fields(t, res)
			if rep["ok"] != true || rep["gates"].([]any)[0].(map[string]any)["status"] != "passed" {
				t.Errorf("roots %v: gates_run: %v", roots, rep)
			}
			if got := ranIn(t, pa, pb); got != pa {
				t.Errorf("roots %v: the gate ran in %q, want the --project-dir %s", roots, got, pa)
			}
			// Progress counts two steps a gate: its start and its end; a
			// skipped gate (lint has no command) both at once.
			want := []string{"1/4 tests: running pwd > where.txt", "2/4 tests: passed", "4/4 lint: skipped"}
			for i, line := range want {
				n := <-p.progress
				if got := fmt.Sprintf("%g/%g %s", n.Progress, n.Total, n.Message); n.ProgressToken != "where" || got != line {
					t.Errorf("roots %v: progress %d: %q, want %q", roots, i, got, line)
				}
			}
			if code := p.close(t); code != 0 {
				t.Errorf("exit code %d; stderr: %s", code, p.stderr)
			}
		}
	})
	t.Run("NoProject", func(t *testing.T) {
		w := newWorld(t)
		coretest.WriteFile(t, filepath.Join(w.root, "settings.yaml"), gate)
		writeProject(t, w.project, "rules:\n  tier: minimal\n")
		sub := filepath.Join(w.project, "sub")
		if err := os.Mkdir(sub, 0o700); err != nil {
			t.Fatal(err)
		}
		p := startMCP(t, bin, sub, w.env(), nil, "--config-root", w.root, "--no-project", "mcp")
		if rep := fields(t, p.call(t, "gates_run", nil)); rep["ok"] != true {
			t.Errorf("gates_run: %v", rep)
		}
		if got := ranIn(t, w.project, sub); got != sub {
			t.Errorf("the gate ran in %q, want the working directory %s: --no-project has no project root", got, sub)
		}
		if code := p.close(t); code != 0 {
			t.Errorf("exit code %d; stderr: %s", code, p.stderr)
		}
	})
}

// gates_run's result is the document of `charter gate run --json`, field
// for field (outputTail a list of lines, message always there), but for
// the time each gate took.
func testMCPGateReportAsCLI(t *testing.T, bin string) {
	w := newWorld(t)
	writeProject(t, w.project, "gates:\n  tests:\n    command: echo one; echo two >&2; exit 3\n")
	trustProject(t, bin, w, w.project)
	cli := cliJSON(t, bin, w.project, w.env(), "--config-root", w.root, "gate", "run", "--json")
	p := startMCP(t, bin, w.project, w.env(), nil, "--config-root", w.root, "mcp")
	res := p.call(t, "gates_run", nil)
	got := fields(t, res)
	var text map[string]any
	if err := json.Unmarshal([]byte(coretest.ToolText(res)), &text); err != nil {
		t.Fatalf("text content: %v", err)
	}
	for _, doc := range []map[string]any{cli, got, text} {
		for _, g := range doc["gates"].([]any) {
			g.(map[string]any)["elapsedMs"] = 0.0
		}
	}
	if !reflect.DeepEqual(got, cli) || !reflect.DeepEqual(text, cli) {
		t.Errorf("gates_run\n structured: %v\n text:       %v\n`charter gate run --json`:\n            %v", got, text, cli)
	}
	if tail := cli["gates"].([]any)[0].(map[string]any)["outputTail"]; !reflect.DeepEqual(tail, []any{"one", "two"}) {
		t.Errorf("outputTail %#v, want the lines one, two", tail)
	}
	if code := p.close(t); code != 0 {
		t.Errorf("exit code %d; stderr: %s", code, p.stderr)
	}
}

// A tool that fails says what `charter … --json` says of the same fault:
// the same error body, code, message (the operating system's part in
// words) and extras. A resource read carries the same body.
func testMCPErrorsAsCLI(t *testing.T, bin string) {
	for _, c := range []struct {
		name  string
		setup func(w world) []string // the fault; returns extra variables
		code  string
		words string // in the message
	}{
		{"AgentkitIsAFile", func(w world) []string {
			coretest.WriteFile(t, filepath.Join(w.home, ".agentkit"), "not a directory\n")
			return nil
		}, "internal", ".agentkit is a file, not a directory: move it away"},
		{"MalformedPolicy", func(w world) []string {
			policy := filepath.Join(w.dir, "policy.yaml")
			coretest.WriteFile(t, policy, "locked: [\n")
			return []string{"AGENTKIT_POLICY_FILE=" + policy}
		}, "malformed_policy", "policy.yaml:1:"},
		{"MalformedSettings", func(w world) []string {
			if err := os.MkdirAll(filepath.Join(w.home, ".agentkit", "charter"), 0o700); err != nil {
				t.Fatal(err)
			}
			coretest.WriteFile(t, filepath.Join(w.home, ".agentkit", "charter", "settings.yaml"), "rules:\n  tier: [\n")
			return nil
		}, "malformed_settings", "settings.yaml:"},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t)
			env := w.env(c.setup(w)...)
			// No --config-root: the default root under the home.
			cli, ok := cliJSON(t, bin, w.project, env, "settings", "get", "rules.tier", "--json")["error"].(map[string]any)
			if !ok || cli["code"] != c.code || !strings.Contains(cli["message"].(string), c.words) {
				t.Fatalf("the CLI's error: %v, want %s saying %q", cli, c.code, c.words)
			}
			p := startMCP(t, bin, w.project, env, nil, "mcp")
			res := p.call(t, "settings_get", map[string]any{"key": "rules.tier"})
			var doc struct {
				Error map[string]any `json:"error"`
			}
			if !res.IsError || json.Unmarshal([]byte(coretest.ToolText(res)), &doc) != nil {
				t.Fatalf("want a tool error, got %s", coretest.ToolText(res))
			}
			if !reflect.DeepEqual(doc.Error, cli) {
				t.Errorf("tool error\n got: %v\nwant: %v (the CLI's)", doc.Error, cli)
			}
			_, err := p.cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: mcpserver.URISettings})
			var re *jsonrpc.Error
			var data map[string]any
			if !errors.As(err, &re) || json.Unmarshal(re.Data, &data) != nil || re.Message != cli["message"] || !reflect.DeepEqual(data, cli) {
				t.Errorf("resource error %v, want the CLI's body %v", err, cli)
			}
			if code := p.close(t); code != 0 {
				t.Errorf("exit code %d; stderr: %s", code, p.stderr)
			}
		})
	}
}
