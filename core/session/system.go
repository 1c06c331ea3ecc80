package session

import (
	"time"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/profile"
)

// NewSystem builds the system a skin's sessions work on from what the
// process hands in: its file system, environment (os.Environ form), clock
// and working directory, its writes checked by charter's guard
// (profile.Guard). The skins build no domain value themselves, and every
// System of a run comes from here (or from a copy of one).
func NewSystem(fs afero.Fs, environ []string, now func() time.Time, getwd func() (string, error)) *core.System {
	return core.NewSystem(fs, environ, now, getwd, profile.Guard)
}

// CompanionHome is agent-switch's home as sys sees it, for a skin that
// names it (the hub's hint of how to enter a profile).
func CompanionHome(sys *core.System) (string, error) { return profile.CompanionHome(sys) }

// DefaultRoot is charter's default config root as sys sees it, for a skin
// that looks for what other scopes under it hold (the hub's other
// servers).
func DefaultRoot(sys *core.System) (string, error) { return profile.DefaultRoot(sys) }
