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
