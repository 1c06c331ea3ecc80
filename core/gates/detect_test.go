package gates_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/gates"
)

// The project's files are hostile input: a manifest that is a link out of
// the project suggests nothing; a Makefile's test target does.
func TestDetectTestsConfined(t *testing.T) {
	m := coretest.New(t, coretest.Fs(afero.NewOsFs()))
	proj := filepath.Join(m.Dir, "proj")
	outside := filepath.Join(m.Dir, "outside")
	coretest.WriteFile(t, filepath.Join(outside, "go.mod"), "module x\n")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "go.mod"), filepath.Join(proj, "go.mod")); err != nil {
		t.Fatal(err)
	}
	if s, ok := gates.DetectTests(m.Sys, proj); ok {
		t.Errorf("a go.mod linked from outside the project suggested %+v", s)
	}
	coretest.WriteFile(t, filepath.Join(proj, "Makefile"), "all:\n\t@echo x\ntest:\n\tgo test\n")
	s, ok := gates.DetectTests(m.Sys, proj)
	if !ok || s.Command != "make test" || s.From != "Makefile" || s.Set != "charter settings set --project gates.tests.command 'make test'" {
		t.Errorf("Makefile: %+v %v", s, ok)
	}
}

// A required gate without a command is listed, with the suggestion for the
// tests gate; a gate with a command, one not required and an untrusted one
// are not.
func TestUnconfigured(t *testing.T) {
	s := &gates.Suggestion{Command: "go test ./...", From: "go.mod", Set: "charter settings set --project gates.tests.command 'go test ./...'"}
	cfg := gates.Config{Tests: gates.Gate{Required: true, Command: " "}, Lint: gates.Gate{Required: true}, Suggested: s}
	got := cfg.Unconfigured()
	if len(got) != 2 || got[0].Gate != gates.Tests || got[0].Key != "gates.tests.command" || got[0].Suggested != s ||
		got[1].Gate != gates.Lint || got[1].Suggested != nil {
		t.Errorf("unconfigured %+v", got)
	}
	cfg.Tests.Command, cfg.Lint.Untrusted = "go test ./...", true
	if got := cfg.Unconfigured(); len(got) != 0 {
		t.Errorf("configured or untrusted gates listed: %+v", got)
	}
	if got := (gates.Config{Lint: gates.Gate{}}).Unconfigured(); got == nil || len(got) != 0 {
		t.Errorf("nothing required: %#v, want an empty list", got)
	}
}
