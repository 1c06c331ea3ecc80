// Package core is the injected environment every domain package works on
// (System: variables, file system, clock, working directory, the write
// guard it is given) and the words they share: errors, the scope and
// profile documents, the companion's facts. Which profile is active and
// where files live is core/profile's; the agent table is core/agents.
//
// Core never reads the process environment, the clock or the working
// directory itself: a System carries them in, so tests can pin each one.
package core

import (
	"os/user"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core/agents"
	"github.com/agentkit/charter/core/fsys"
	"github.com/agentkit/charter/helpers/env"
)

// System is everything core learns from the machine.
type System struct {
	// Files is the file system (Fs, Paths, Now) behind the guarded reads
	// and writes; its guard (built by guard) asks this System about the
	// companion tree.
	*fsys.Files
	Vars  *env.Env
	Getwd func() (string, error)
	names []string // variable names, for rules that scan them
	// rootFlag is this run's --config-root (SetConfigRoot): lock files
	// live under the root it resolves to.
	rootFlag *string
	// serves is the agent a command serves alone (ServeAgent): its own
	// variable chooses the profile first.
	serves string
	// guard builds the write guard for this System and each copy of it.
	guard Guard

	// UserHome is the account's home from the system user database: the
	// real home when HOME is an antigravity profile's fake one.
	UserHome func() (string, error)
	// AgentTable is the agents this System knows; nil means the built-in
	// table (agents.Default).
	AgentTable agents.Table
	// Euid is the user charter runs as, for the ownership check of a
	// project (ForeignProject); nil means the process's own.
	Euid func() int
	// Warn receives warnings that do not stop a command (the CLI prints
	// them on stderr); nil drops them.
	Warn func(msg string)
	// Executable is the path of the running charter binary; nil means
	// os.Executable. Tests set it to stand for `go run`'s build cache.
	Executable func() (string, error)
}

// NewSystem builds a System from an environment in os.Environ form, its
// writes checked by guard (charter's is core/profile.Guard: session.NewSystem
// and coretest pass it). A nil guard is a programming error: no System
// writes unguarded.
func NewSystem(fs afero.Fs, environ []string, now func() time.Time, getwd func() (string, error), guard Guard) *System {
	if guard == nil {
		panic("core.NewSystem: no write guard; build the System with session.NewSystem, or pass profile.Guard")
	}
	vars := make(map[string]string, len(environ))
	names := make([]string, 0, len(environ))
	for _, kv := range environ {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			continue
		}
		if _, dup := vars[k]; !dup {
			names = append(names, k)
		}
		vars[k] = v
	}
	sort.Strings(names)
	s := &System{
		Vars: env.New(func(k string) (string, bool) {
			v, ok := vars[k]
			return v, ok
		}),
		Getwd: getwd,
		names: names,
		guard: guard,
	}
	s.Files = fsys.NewFiles(fs, fsys.PathStyle{Windows: runtime.GOOS == "windows"}, now, guard(s))
	s.UserHome = userHome
	return s
}

// userHome asks the system user database (cached by os/user).
func userHome() (string, error) {
	u, err := user.Current()
	if err != nil {
		return "", err
	}
	return u.HomeDir, nil
}

// Getenv returns a variable's value, "" when unset.
func (s *System) Getenv(key string) string {
	v, _ := s.Vars.Get(key, "").(string)
	return v
}

// VarNames lists the variable names in lexical order.
func (s *System) VarNames() []string { return s.names }
