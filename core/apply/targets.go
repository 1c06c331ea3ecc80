package apply

import "github.com/agentkit/charter/core"

// File is an agent instruction file apply would write.
type File struct {
	Agent string
	Path  string
}

// Files lists the files Plan would plan for the chosen agents (nil: the
// default ones), without reading settings or files: `charter doctor` checks
// their paths for shared links even when the settings cannot be read.
func Files(sys *core.System, agents []string) ([]File, error) {
	sel, err := selectAgents(sys, agents)
	if err != nil {
		return nil, err
	}
	out := make([]File, 0, len(sel))
	for _, a := range sel {
		dir, err := agentDir(sys, a)
		if err != nil {
			return nil, err
		}
		out = append(out, File{Agent: a.Name, Path: sys.Paths.Join(dir, a.File)})
	}
	return out, nil
}
