package loaded

import (
	"context"
	"fmt"
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/content"
	"github.com/agentkit/charter/core/projection"
)

// Record notes one InstructionsLoaded event of agent's session in the
// records under stateDir (<scope>/state): the file is matched against
// what charter projected, the user-level record (<scope>/state/
// projection.json) and the lock of the nearest project above the file
// (<project>/.charter/projection.lock). A file charter did not project
// (a user's own CLAUDE.md, a path outside any record) is not recorded;
// the session still is, so "the last session" stays the last one. A
// cancelled ctx records nothing.
func Record(ctx context.Context, sys *core.System, stateDir, agent string, in Input) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if !sys.Paths.IsAbs(in.FilePath) {
		return fmt.Errorf("file_path %q is not an absolute path: ignored", in.FilePath)
	}
	path := sys.Paths.Clean(in.FilePath)
	f, err := match(sys, sys.Paths.Join(stateDir, "projection.json"), path)
	if err != nil {
		return err
	}
	if f != nil {
		f.Reason, f.At = in.LoadReason, sys.Now().UTC()
	}
	return add(sys, Dir(sys, stateDir), in, agent, f)
}

// maxDepth bounds the walk up from a loaded file to its project.
const maxDepth = 64

// match finds path in the user record, else in the lock of the nearest
// project above it; nil when charter did not project it.
func match(sys *core.System, userRecord, path string) (*File, error) {
	rec, err := projection.ReadRecord(sys, userRecord, "")
	if err != nil {
		return nil, err
	}
	for _, e := range rec.Files {
		if sys.Paths.IsAbs(e.Path) && sys.Paths.Clean(e.Path) == path {
			return &File{Path: path, Kind: e.Kind, Item: e.Item, Agent: e.Agent, Level: content.LevelUser}, nil
		}
	}
	dir := sys.Paths.Dir(path)
	for i := 0; i < maxDepth; i++ {
		lock := sys.Paths.Join(dir, core.ProjectDirName, "projection.lock")
		if _, err := sys.Fs.Stat(lock); err == nil {
			return matchLock(sys, dir, lock, path)
		}
		up := sys.Paths.Dir(dir)
		if up == dir {
			break
		}
		dir = up
	}
	return nil, nil
}

// matchLock finds path in the project's lock: a repository's file, read
// confined to the project and capped.
func matchLock(sys *core.System, root, lock, path string) (*File, error) {
	rec, err := projection.ReadRecord(sys, lock, root)
	if err != nil {
		return nil, err
	}
	segs, ok := sys.Paths.Within(root, path)
	if !ok {
		return nil, nil
	}
	rel := strings.Join(segs, "/")
	for _, e := range rec.Files {
		if e.Path == rel {
			return &File{Path: path, Kind: e.Kind, Item: e.Item, Agent: e.Agent, Level: content.LevelProject}, nil
		}
	}
	return nil, nil
}
