package commands

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// No charter package has initialisation to run: every command would pay
// for it, and a package's init is often the one page of its code a
// command that never uses it touches (docs/performance.md, start-up).
// Package values that need work are lazy (core/lazy).
func TestNoPackageInitialisation(t *testing.T) {
	bin := buildCharter(t)
	cmd := exec.Command(bin, "--version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("charter --version: %v\n%s", err, stderr.String())
	}
	seen := false
	for line := range strings.Lines(stderr.String()) {
		f := strings.Fields(line)
		if len(f) < 2 || f[0] != "init" {
			continue
		}
		seen = true
		if strings.HasPrefix(f[1], "github.com/agentkit/charter/") {
			t.Errorf("package %s has initialisation to run: %s", f[1], strings.TrimSpace(line))
		}
	}
	if !seen {
		t.Fatalf("GODEBUG=inittrace=1 traced no package:\n%s", stderr.String())
	}
}
