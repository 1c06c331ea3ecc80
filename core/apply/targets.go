package apply

import (
	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/profile"
)

// File is an agent instruction file apply would write.
type File struct {
	Agent string
	Path  string
}

// Files lists the files Plan would plan for the chosen agents (nil: the
// default ones), without reading settings or files: `charter doctor` checks
// their paths for shared links even when the settings cannot be read.
func Files(sys *core.System, agents []string) ([]File, error) {
	sel, err := selectAgents(sys, agents, LevelUser, nil)
	if err != nil {
		return nil, err
	}
	sel, _ = sharedUserFiles(sys, sel, false)
	out := make([]File, 0, len(sel))
	for _, a := range sel {
		p, err := profile.UserPath(sys, a)
		if err != nil {
			return nil, err
		}
		out = append(out, File{Agent: a.Name, Path: p})
		if h, ok := stopHookOf(a.Name); ok { // Plan's hook target, beside CLAUDE.md or AGENTS.md
			out = append(out, File{Agent: a.Name, Path: sys.Paths.Join(sys.Paths.Dir(p), h.file)})
		}
	}
	return out, nil
}
