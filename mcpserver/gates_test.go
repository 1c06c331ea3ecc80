package mcpserver

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/gates"
)

// The gates run where the settings came from: the project's root (named
// by --project-dir, or found from the client's directory), else the
// client's directory.
func TestGatesRunInTheProject(t *testing.T) {
	dir := t.TempDir()
	e := newEnv(t)
	shop, other := filepath.Join(dir, "shop"), filepath.Join(dir, "other")
	e.write(t, filepath.Join(shop, ".charter", "settings.yaml"), "rules:\n  tier: full\n")
	e.write(t, filepath.Join(other, ".charter", "settings.yaml"), "rules:\n  tier: minimal\n")
	deep := filepath.Join(shop, "a", "b")
	if err := os.MkdirAll(deep, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name       string
		projectDir *string
		noProject  bool
		client     string
		want       string
	}{
		{"found from the client's directory", nil, false, deep, shop},
		{"--project-dir", &shop, false, other, shop},
		{"--no-project", nil, true, deep, deep},
		{"no project", nil, false, e.wd, e.wd},
	} {
		var got GateRequest
		l := e.backend(func(ctx context.Context, req GateRequest, progress Progress) (gates.Report, error) {
			got = req
			return gates.Report{OK: true, Gates: []gates.Result{}}, nil
		})
		l.ProjectDir, l.NoProject = c.projectDir, c.noProject
		if _, err := l.RunGates(context.Background(), c.client, nil, func(int, int, string) {}); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got.Dir != c.want {
			t.Errorf("%s: the gates run in %s, want %s", c.name, got.Dir, c.want)
		}
		if tier := got.Settings.Values["rules.tier"]; c.want == shop && tier != "full" {
			t.Errorf("%s: the runner got rules.tier %v, not the project's", c.name, tier)
		}
	}
}

// gates_run answers with the runner's report as `charter gate run --json`
// prints it: outputTail a list of lines, coverage as two numbers, message
// even when empty.
func TestGatesRunIsTheCLIDocument(t *testing.T) {
	code := 0
	rep := gates.Report{OK: true, Gates: []gates.Result{
		{Name: gates.Tests, Status: gates.StatusPassed, ExitCode: &code, ElapsedMs: 12, OutputTail: []string{"ok  \tshop\t0.1s", "PASS"}},
		{Name: gates.Coverage, Status: gates.StatusPassed, ExitCode: &code, ElapsedMs: 30, OutputTail: []string{},
			Coverage: &gates.CoverageResult{Percent: decimal.RequireFromString("84.21"), Min: decimal.RequireFromString("80")}, Message: "coverage 84.21% meets the minimum 80%"},
	}}
	e := newEnv(t)
	srv := New(e.backend(func(context.Context, GateRequest, Progress) (gates.Report, error) { return rep, nil }),
		Options{Getwd: e.sys.Getwd, Paths: e.sys.Paths, Message: e.sys.ErrorMessage})
	res := call(t, connect(t, srv, newClient(noRoots), ""), "gates_run", nil)
	if res.IsError {
		t.Fatalf("tool error: %s", coretest.ToolText(res))
	}
	var want any
	structuredJSON, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(rep.JSON(), &want); err != nil {
		t.Fatal(err)
	}
	for name, doc := range map[string][]byte{"text": []byte(coretest.ToolText(res)), "structured content": structuredJSON} {
		var got any
		if err := json.Unmarshal(doc, &got); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n%s\nwant the CLI's document:\n%s", name, doc, rep.JSON())
		}
	}
}
