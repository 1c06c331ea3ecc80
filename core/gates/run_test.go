//go:build unix

package gates

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/spf13/afero"
)

func required(cmd string) Gate { return Gate{Command: cmd, Required: true} }

func TestRunPassFailAndOrder(t *testing.T) {
	var events []string
	cfg := Config{
		Tests: required("echo bad; echo worse >&2; exit 3"),
		Lint:  required("echo fine"),
		Dir:   t.TempDir(),
	}
	rep := Run(context.Background(), cfg, nil, func(e Event) {
		s := e.Kind + " " + e.Gate
		switch e.Kind {
		case EventOutput:
			s += " " + e.Line
		case EventDone:
			s += " " + e.Result.Status
		}
		events = append(events, s)
	})
	want := []string{
		"start tests", "output tests bad", "output tests worse", "done tests failed",
		"start lint", "output lint fine", "done lint passed",
	}
	if !reflect.DeepEqual(events, want) {
		t.Fatalf("events\n%q\nwant\n%q", events, want)
	}
	if rep.OK || rep.ExitCode() != ExitFailed || len(rep.Gates) != 2 {
		t.Fatalf("report %+v", rep)
	}
	tests := rep.Gates[0]
	if tests.Name != Tests || tests.Status != StatusFailed || tests.ExitCode == nil || *tests.ExitCode != 3 ||
		!reflect.DeepEqual(tests.OutputTail, []string{"bad", "worse"}) || tests.Message != "exit code 3" {
		t.Fatalf("tests gate %+v", tests)
	}
	if lint := rep.Gates[1]; lint.Status != StatusPassed || *lint.ExitCode != 0 || lint.Coverage != nil {
		t.Fatalf("lint gate %+v", lint)
	}
	if f := rep.Failing(); len(f) != 1 || f[0].Name != Tests {
		t.Fatalf("failing %+v", f)
	}
}

func TestRunSkipsAndSubsets(t *testing.T) {
	cfg := Config{
		Tests:    Gate{Required: true},                     // no command
		Lint:     Gate{Command: "exit 1", Required: false}, // not required: not run, not listed
		Coverage: CoverageGate{Min: decimal.Zero},          // min 0: not required
		Dir:      t.TempDir(),
	}
	rep := Run(context.Background(), cfg, nil, nil)
	if !rep.OK || rep.ExitCode() != 0 || len(rep.Gates) != 1 {
		t.Fatalf("report %+v", rep)
	}
	g := rep.Gates[0]
	if g.Status != StatusSkipped || g.ExitCode != nil ||
		!strings.Contains(g.Message, `charter settings set --project gates.tests.command '<the command that runs the tests>'`) {
		t.Fatalf("skipped gate %+v", g)
	}

	cfg = Config{Tests: required("exit 1"), Lint: required("true"), Dir: t.TempDir()}
	rep = Run(context.Background(), cfg, []string{Lint}, nil)
	if !rep.OK || len(rep.Gates) != 1 || rep.Gates[0].Name != Lint {
		t.Fatalf("subset report %+v", rep)
	}
	if rep := Run(context.Background(), Config{}, nil, nil); !rep.OK || rep.Gates == nil || len(rep.Gates) != 0 {
		t.Fatalf("nothing required: %+v", rep)
	}
}

func TestRunKeepsTheLastLines(t *testing.T) {
	cfg := Config{Tests: required(`i=1; while [ $i -le 100 ]; do echo "line $i"; i=$((i+1)); done; printf 'no newline'`), Dir: t.TempDir()}
	g := Run(context.Background(), cfg, nil, nil).Gates[0]
	if len(g.OutputTail) != TailLines {
		t.Fatalf("%d lines: %q", len(g.OutputTail), g.OutputTail)
	}
	if g.OutputTail[0] != "line 62" || g.OutputTail[38] != "line 100" || g.OutputTail[39] != "no newline" {
		t.Fatalf("tail %q", g.OutputTail)
	}
}

// One endless line costs at most maxLineBytes.
func TestRunTruncatesLongLines(t *testing.T) {
	cfg := Config{Tests: required(`head -c 3000000 /dev/zero | tr '\0' a; echo; echo after`), Dir: t.TempDir()}
	g := Run(context.Background(), cfg, nil, nil).Gates[0]
	if g.Status != StatusPassed || len(g.OutputTail) != 2 || g.OutputTail[1] != "after" {
		t.Fatalf("gate %+v", g.Status)
	}
	if l := g.OutputTail[0]; len(l) != maxLineBytes+len(truncMark) || !strings.HasSuffix(l, truncMark) {
		t.Fatalf("long line kept as %d bytes", len(l))
	}
}

func TestTailRing(t *testing.T) {
	var got []string
	tl := &tail{onLine: func(s string) { got = append(got, s) }}
	fmt.Fprint(tl, "a\r\nb")
	fmt.Fprint(tl, "c\n\xff\n")
	if lines := tl.Lines(); !reflect.DeepEqual(lines, []string{"a", "bc", "\uFFFD"}) {
		t.Fatalf("lines %q", lines)
	}
	if !reflect.DeepEqual(got, []string{"a", "bc", "\uFFFD"}) {
		t.Fatalf("events %q", got)
	}
	if l := (&tail{}).Lines(); l == nil || len(l) != 0 {
		t.Fatalf("empty tail %#v", l)
	}
}

func TestRunStartFailure(t *testing.T) {
	cfg := Config{Tests: required("true"), Dir: filepath.Join(t.TempDir(), "missing")}
	g := Run(context.Background(), cfg, nil, nil).Gates[0]
	if g.Status != StatusFailed || g.ExitCode != nil || !strings.HasPrefix(g.Message, "start tests: ") {
		t.Fatalf("gate %+v", g)
	}
}

func TestRunReportsSignals(t *testing.T) {
	cfg := Config{Tests: required("kill -ABRT $$"), Dir: t.TempDir()}
	g := Run(context.Background(), cfg, nil, nil).Gates[0]
	if g.Status != StatusFailed || g.ExitCode == nil || *g.ExitCode != 134 || g.Message != "killed by signal SIGABRT" {
		t.Fatalf("gate %+v", g)
	}
}

func TestRunCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg := Config{Tests: required("sleep 1000"), Lint: required("true"), Dir: t.TempDir(), KillGrace: 50 * time.Millisecond}
	rep := Run(ctx, cfg, nil, func(e Event) {
		if e.Kind == EventStart {
			cancel()
		}
	})
	if rep.OK || len(rep.Gates) != 2 {
		t.Fatalf("report %+v", rep)
	}
	if g := rep.Gates[0]; g.Status != StatusFailed || g.ExitCode != nil || !strings.HasPrefix(g.Message, "cancelled") {
		t.Fatalf("cancelled gate %+v", g)
	}
	if g := rep.Gates[1]; g.Status != StatusSkipped || g.Message != "not run: cancelled" {
		t.Fatalf("next gate %+v", g)
	}
}

func TestRunCoverage(t *testing.T) {
	elsewhere, err := filepath.Abs(filepath.Join("testdata", "coverage", "go-merged.out"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	data, err := os.ReadFile(elsewhere)
	if err != nil {
		t.Fatal(err)
	}
	abs := filepath.Join(dir, "go-merged.out") // an absolute path inside the project
	os.WriteFile(abs, data, 0o644)
	os.WriteFile(filepath.Join(dir, "bad.info"), []byte("SF:a\nDA:1\nend_of_record\n"), 0o644)
	// The report's name is the repository's: it must not lead out of it.
	os.Symlink(elsewhere, filepath.Join(dir, "out.out"))
	os.Symlink("go-merged.out", filepath.Join(dir, "in.out"))
	for _, tc := range []struct {
		name, command, report, min string
		status, message            string
		coverage                   string // JSON, or "null"
	}{
		{"passes", "true", abs, "50", StatusPassed,
			"coverage 66.66% (6 of 9 statements, Go cover profile) meets the minimum 50%", `{"percent":66.66,"min":50}`},
		{"exact edge", "true", abs, "66.666", StatusPassed, "", `{"percent":66.666,"min":66.666}`},
		{"below", "true", abs, "66.67", StatusFailed,
			"coverage 66.66% (6 of 9 statements, Go cover profile) is below the minimum 66.67%", `{"percent":66.66,"min":66.67}`},
		{"relative to Dir", "cp " + abs + " cover.out", "cover.out", "10.0", StatusPassed, "", `{"percent":66.66,"min":10}`},
		{"missing report", "true", "nope.out", "10", StatusFailed, "read coverage report nope.out: no such file or directory", "null"},
		{"malformed report", "true", "bad.info", "10", StatusFailed, "coverage report bad.info: line 2: DA: wants line,count: \"1\"", "null"},
		{"no report setting", "true", "", "10", StatusFailed, "gates.coverage.report is empty", "null"},
		{"command fails", "exit 2", abs, "10", StatusFailed, "exit code 2", "null"},
		{"absolute elsewhere", "true", elsewhere, "10", StatusFailed,
			"coverage report: " + elsewhere + " is outside the project " + dir, "null"},
		{"link out", "true", "out.out", "10", StatusFailed,
			"coverage report: " + filepath.Join(dir, "out.out") + " is a link that leads out of the project " + dir, "null"},
		{"link inside", "true", "in.out", "10", StatusPassed, "", `{"percent":66.66,"min":10}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := Config{Coverage: CoverageGate{Command: tc.command, Report: tc.report, Min: decimal.RequireFromString(tc.min)}, Dir: dir}
			rep := Run(context.Background(), cfg, nil, nil)
			g := rep.Gates[0]
			if g.Status != tc.status || !strings.HasPrefix(g.Message, tc.message) || rep.OK != (tc.status == StatusPassed) {
				t.Fatalf("gate %s %q", g.Status, g.Message)
			}
			if cov, _ := json.Marshal(g.Coverage); string(cov) != tc.coverage {
				t.Fatalf("coverage %s, want %s", cov, tc.coverage)
			}
		})
	}
}

func TestRunCoverageThroughFs(t *testing.T) {
	fs := afero.NewMemMapFs()
	afero.WriteFile(fs, "/p/cover.out", []byte("mode: set\nx.go:1.1,2.2 1 1\n"), 0o644)
	cfg := Config{Coverage: CoverageGate{Command: "true", Report: "cover.out", Min: decimal.NewFromInt(100)}, Dir: "/", Fs: afero.NewBasePathFs(fs, "/p")}
	if g := Run(context.Background(), cfg, nil, nil).Gates[0]; g.Status != StatusPassed {
		t.Fatalf("gate %+v", g)
	}
}

// The report document is the one SPEC §10 names, field for field.
func TestReportJSON(t *testing.T) {
	code := 3
	rep := Report{OK: false, Gates: []Result{
		{Name: Tests, Status: StatusFailed, ExitCode: &code, ElapsedMs: 12, OutputTail: []string{"bad"}, Message: "exit code 3", Command: "x"},
		{Name: Coverage, Status: StatusPassed, ExitCode: new(int), OutputTail: []string{},
			Coverage: &CoverageResult{Percent: decimal.RequireFromString("66.660"), Min: decimal.RequireFromString("12.50")}},
		{Name: Lint, Status: StatusSkipped, OutputTail: []string{}, Message: "m"},
	}}
	want := `{"ok":false,"gates":[` +
		`{"name":"tests","status":"failed","exitCode":3,"elapsedMs":12,"outputTail":["bad"],"coverage":null,"message":"exit code 3"},` +
		`{"name":"coverage","status":"passed","exitCode":0,"elapsedMs":0,"outputTail":[],"coverage":{"percent":66.66,"min":12.5},"message":""},` +
		`{"name":"lint","status":"skipped","exitCode":null,"elapsedMs":0,"outputTail":[],"coverage":null,"message":"m"}]}`
	if got := string(rep.JSON()); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func TestParseNames(t *testing.T) {
	for in, want := range map[string][]string{
		"": nil, " ": nil, "coverage,tests": {Tests, Coverage}, "lint, lint ,tests": {Tests, Lint},
	} {
		got, err := ParseNames(in)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("ParseNames(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := ParseNames("tests,unit"); err == nil || !strings.Contains(err.Error(), `unknown gate "unit": choose among tests, lint, coverage`) {
		t.Fatalf("err = %v", err)
	}
}
