// Package coretest builds pinned systems for tests: one call gives a
// *core.System whose home, PATH, policy file, working directory and user
// database answer from the test's own temporary directory, so that no test
// reads the machine's own /etc or $HOME.
//
// Only _test.go files may import it (a test in this package checks).
package coretest

import (
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/profile"
)

// Machine is a pinned system and where it lives.
type Machine struct {
	Sys *core.System
	// Dir is the test's directory: t.TempDir() on a real file system, a
	// fixed path on a memory one.
	Dir string
	// Home is $HOME: Dir/home (created) unless the Home option chose it.
	Home string
	// PolicyFile is $AGENTKIT_POLICY_FILE, Dir/policy.yaml: absent until
	// the test writes it.
	PolicyFile string

	environ []string
	fs      afero.Fs
	wd      string
}

// MemDir is a Machine's Dir on a memory file system.
const MemDir = "/coretest"

// Option changes what New builds.
type Option func(*options)

type options struct {
	fs      afero.Fs
	home    string
	wd      string
	extra   []string
	without []string
}

// Env adds variables in os.Environ form; they win over the pinned ones.
// "$HOME" and "$DIR" in a value stand for the Machine's Home and Dir.
func Env(kv ...string) Option {
	return func(o *options) { o.extra = append(o.extra, kv...) }
}

// Without leaves pinned variables unset (HOME, PATH, AGENTKIT_POLICY_FILE),
// for a test of what charter does without them.
func Without(names ...string) Option {
	return func(o *options) { o.without = append(o.without, names...) }
}

// Fs is the file system; the default is the real one. On a
// *afero.MemMapFs the Machine's Dir is MemDir and no temporary directory
// is made.
func Fs(fs afero.Fs) Option { return func(o *options) { o.fs = fs } }

// Home chooses $HOME; New does not create it.
func Home(path string) Option { return func(o *options) { o.home = path } }

// Wd is the working directory the System reports; the default is Home.
func Wd(dir string) Option { return func(o *options) { o.wd = dir } }

// New builds a pinned Machine: HOME, PATH (empty) and AGENTKIT_POLICY_FILE
// are set, every other variable (Cleared() among them) is unset, Getwd
// answers Home and the user database answers Home.
func New(t testing.TB, opts ...Option) *Machine {
	t.Helper()
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	if o.fs == nil {
		o.fs = afero.NewOsFs()
	}
	m := &Machine{fs: o.fs, Home: o.home}
	if _, mem := o.fs.(*afero.MemMapFs); mem {
		m.Dir = MemDir
	} else {
		m.Dir = t.TempDir()
	}
	if m.Home == "" {
		m.Home = filepath.Join(m.Dir, "home")
		if err := o.fs.MkdirAll(m.Home, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	m.PolicyFile = filepath.Join(m.Dir, "policy.yaml")
	m.wd = o.wd
	if m.wd == "" {
		m.wd = m.Home
	}

	vars := map[string]string{"HOME": m.Home, "PATH": "", PolicyVar: m.PolicyFile}
	for _, name := range o.without {
		delete(vars, name)
	}
	expand := strings.NewReplacer("$HOME", m.Home, "$DIR", m.Dir)
	for _, kv := range o.extra {
		k, v, _ := strings.Cut(kv, "=")
		vars[k] = expand.Replace(v)
	}
	for k, v := range vars {
		m.environ = append(m.environ, k+"="+v)
	}
	sort.Strings(m.environ)
	m.Sys = m.Another()
	return m
}

// Another is a second System on the same machine, as another charter
// process would see it: same environment and files, its own locks.
func (m *Machine) Another() *core.System {
	wd, home := m.wd, m.Home
	sys := core.NewSystem(m.fs, m.environ, time.Now, func() (string, error) { return wd, nil }, profile.Guard)
	sys.UserHome = func() (string, error) { return home, nil }
	return sys
}

// Environ is the Machine's environment in os.Environ form, for a run of
// the CLI's Main.
func (m *Machine) Environ() []string { return append([]string(nil), m.environ...) }
