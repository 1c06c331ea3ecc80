package profile

import (
	"fmt"
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/agents"
)

// AgentDir is the agent's user-level directory. Inside a profile selected
// by an agent's variable it is that profile's config directory, for every
// agent, so a profile's settings never land in another scope's file.
// Otherwise (no profile, or a profile entered through HOME, whose home is
// the agents' home) the agent's own variable, else its default below $HOME.
func AgentDir(s *core.System, a agents.Agent) (string, error) {
	if dir, ok := Dir(s); ok && !ViaHome(s) {
		return dir, nil
	}
	if a.DirVar != "" {
		if v := s.Getenv(a.DirVar); strings.TrimSpace(v) != "" && (a.DirSub == "" || s.Paths.IsAbs(strings.TrimSpace(v))) {
			dir, err := s.Normalize(v)
			if err != nil {
				return "", fmt.Errorf("%s: %w", a.DirVar, err)
			}
			if a.DirSub != "" {
				dir = s.Paths.Join(dir, a.DirSub)
			}
			return dir, nil
		}
	}
	// On Windows etcetera's strategy is Windows', which reads no XDG.
	if v := strings.TrimSpace(s.Getenv(agents.XDGConfigVar)); a.XDGDir != "" && !s.Paths.Windows && s.Paths.IsAbs(v) {
		return s.Paths.Join(s.Paths.Clean(v), a.XDGDir), nil
	}
	home, err := s.Home()
	if err != nil {
		return "", err
	}
	if a.WindowsDir != "" && s.Paths.Windows {
		return s.Paths.Join(append([]string{home}, strings.Split(a.WindowsDir, "/")...)...), nil
	}
	return s.Paths.Join(home, a.DefaultDir), nil
}

// UserPath is the agent's user-level instruction file, "" when it has none.
func UserPath(s *core.System, a agents.Agent) (string, error) {
	if a.UserFile == "" {
		return "", nil
	}
	dir, err := AgentDir(s, a)
	if err != nil {
		return "", err
	}
	return s.Paths.Join(dir, a.UserFile), nil
}
