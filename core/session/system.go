package session

import (
	"time"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
)

// NewSystem builds the system a skin's sessions work on from what the
// process hands in: its file system, environment (os.Environ form), clock
// and working directory. The skins build no domain value themselves.
func NewSystem(fs afero.Fs, environ []string, now func() time.Time, getwd func() (string, error)) *core.System {
	return core.NewSystem(fs, environ, now, getwd)
}
