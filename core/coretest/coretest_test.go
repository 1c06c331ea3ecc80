package coretest_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/profile"
	"github.com/agentkit/charter/core/settings"
)

// A Machine sees nothing of the machine it runs on: its home, policy file,
// working directory and user database are the test's, and every variable
// charter reads for a directory is unset.
func TestNewPins(t *testing.T) {
	// The developer's own environment, as a leak would carry it in.
	for _, v := range append(coretest.Cleared(), "HOME", coretest.PolicyVar) {
		t.Setenv(v, "/leaked")
	}
	m := coretest.New(t)
	sys := m.Sys
	if got := sys.VarNames(); !slices.Equal(got, []string{coretest.PolicyVar, "HOME", "PATH"}) {
		t.Errorf("variables %v", got)
	}
	if sys.Getenv("HOME") != m.Home || filepath.Dir(m.Home) != m.Dir || sys.Getenv("PATH") != "" {
		t.Errorf("HOME %q PATH %q, dir %q", sys.Getenv("HOME"), sys.Getenv("PATH"), m.Dir)
	}
	if fi, err := os.Stat(m.Home); err != nil || !fi.IsDir() {
		t.Errorf("home not made: %v", err)
	}
	if p, err := settings.PolicyPath(sys); err != nil || p != m.PolicyFile || filepath.Dir(p) != m.Dir {
		t.Errorf("policy path %q, %v; want %q", p, err, m.PolicyFile)
	}
	if p, err := settings.LoadPolicy(sys); p != nil || err != nil {
		t.Errorf("a policy before the test wrote one: %+v, %v", p, err)
	}
	if wd, err := sys.Getwd(); wd != m.Home || err != nil {
		t.Errorf("getwd %q, %v", wd, err)
	}
	if h, err := sys.UserHome(); h != m.Home || err != nil {
		t.Errorf("user database home %q, %v", h, err)
	}
	sc, err := profile.ResolveScope(sys, nil)
	if err != nil || !strings.HasPrefix(sc.Path, m.Home+string(filepath.Separator)) || sc.Kind != "global" {
		t.Errorf("scope %+v, %v", sc, err)
	}

	// The policy the test writes applies.
	coretest.WriteFile(t, m.PolicyFile, "lock:\n  rules.tier: full\n")
	if p, err := settings.LoadPolicy(sys); err != nil || p == nil {
		t.Errorf("written policy: %+v, %v", p, err)
	}
}

func TestPolicyVar(t *testing.T) {
	if coretest.PolicyVar != settings.PolicyVar {
		t.Fatalf("coretest.PolicyVar %q, settings.PolicyVar %q", coretest.PolicyVar, settings.PolicyVar)
	}
}

func TestEnvWithout(t *testing.T) {
	m := coretest.New(t, coretest.Env("CLAUDE_CONFIG_DIR=$HOME/c", "PATH=$DIR/bin", "X=a=b"), coretest.Without(coretest.PolicyVar))
	for k, want := range map[string]string{"CLAUDE_CONFIG_DIR": filepath.Join(m.Home, "c"), "PATH": m.Dir + "/bin", "X": "a=b"} {
		if got := m.Sys.Getenv(k); got != want {
			t.Errorf("%s=%q, want %q", k, got, want)
		}
	}
	if m.Sys.Vars.Has(coretest.PolicyVar) || slices.ContainsFunc(m.Environ(), func(kv string) bool { return strings.HasPrefix(kv, coretest.PolicyVar+"=") }) {
		t.Errorf("Without kept the policy variable: %v", m.Environ())
	}
}

// On a memory file system nothing is made on disk, and the home is made
// in the memory one.
func TestMemMapFs(t *testing.T) {
	fs := afero.NewMemMapFs()
	m := coretest.New(t, coretest.Fs(fs))
	if m.Dir != coretest.MemDir || m.Sys.Fs != fs {
		t.Fatalf("dir %q", m.Dir)
	}
	if ok, _ := afero.DirExists(fs, m.Home); !ok {
		t.Error("home not made in the memory file system")
	}
	if p, err := settings.LoadPolicy(m.Sys); p != nil || err != nil {
		t.Errorf("policy %+v, %v", p, err)
	}
	// A chosen home and working directory are used as given, and not made.
	m = coretest.New(t, coretest.Fs(afero.NewMemMapFs()), coretest.Home("/h"), coretest.Wd("/w"))
	if ok, _ := afero.DirExists(m.Sys.Fs, "/h"); ok || m.Sys.Getenv("HOME") != "/h" {
		t.Errorf("home %q made %v", m.Sys.Getenv("HOME"), ok)
	}
	if wd, _ := m.Sys.Getwd(); wd != "/w" {
		t.Errorf("wd %q", wd)
	}
}

func TestAnother(t *testing.T) {
	m := coretest.New(t, coretest.Env("CODEX_HOME=/c"))
	other := m.Another()
	if other == m.Sys || !slices.Equal(other.VarNames(), m.Sys.VarNames()) || other.Getenv("CODEX_HOME") != "/c" {
		t.Fatalf("another: %v", other.VarNames())
	}
}

// tb records failures instead of failing.
type tb struct {
	testing.TB
	errs []string
}

func (r *tb) Helper()                   {}
func (r *tb) Errorf(f string, a ...any) { r.errs = append(r.errs, f) }
func (r *tb) Error(a ...any)            { r.errs = append(r.errs, "error") }
func (r *tb) Fatalf(f string, a ...any) { r.errs = append(r.errs, f) }
func (r *tb) Fatal(a ...any)            { r.errs = append(r.errs, "fatal") }

func TestGolden(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.golden")
	coretest.WriteFile(t, path, "a\nb\n")
	r := &tb{TB: t}
	coretest.Golden(r, path, []byte("a\nb\n"))
	if len(r.errs) != 0 {
		t.Fatalf("same bytes: %v", r.errs)
	}
	coretest.Golden(r, path, []byte("a\nc\n"))
	coretest.Golden(r, filepath.Join(t.TempDir(), "none"), nil)
	if len(r.errs) != 2 {
		t.Fatalf("a difference and a missing file: %v", r.errs)
	}
}
