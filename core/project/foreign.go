package project

import (
	"fmt"
	"io/fs"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/trust"
)

// Foreign is a project directory whose .charter/ (or a settings file
// in it) another user owns. Like git's safe.directory, charter does not use
// it: on a shared host, a .charter/ in a sticky folder above the working
// directory would otherwise run its owner's commands as the victim. The
// user accepts one by trusting it (`charter trust --project-dir DIR`),
// which records the root with its owner.
type Foreign struct {
	Dir   string `json:"path"`  // the project root
	Path  string `json:"owned"` // the file or directory another user owns
	Owner int    `json:"owner"` // its uid
	Euid  int    `json:"euid"`  // the user charter runs as
	mixed bool   // its files have more than one foreign owner: never accepted
}

// Warning is the one line the CLI prints on stderr about p.
func (p Foreign) Warning() string {
	return fmt.Sprintf("ignoring the project %s: %s is owned by uid %d, not by you (uid %d); if you trust its owner, run `charter trust --project-dir %s`",
		p.Dir, p.Path, p.Owner, p.Euid, p.Dir)
}

// foreignProject reports whether one of paths (dir/.charter and its
// settings files, with what Stat said of each in infos) is owned by another
// user than the one charter runs as. A file system that does not say who
// owns a file (an in-memory one, Windows) owns nothing.
func foreignProject(s *core.System, dir string, paths []string, infos []fs.FileInfo) (Foreign, bool) {
	euid, ok := s.RunsAs()
	if !ok {
		return Foreign{}, false
	}
	var fp Foreign
	found := false
	for i, p := range paths {
		uid, ok := core.FileOwner(infos[i])
		switch {
		case !ok || uid == euid:
		case !found:
			fp, found = Foreign{Dir: dir, Path: p, Owner: uid, Euid: euid}, true
		case uid != fp.Owner:
			return Foreign{Dir: dir, Path: p, Owner: uid, Euid: euid, mixed: true}, true
		}
	}
	return fp, found
}

// acceptedForeign reports whether the user trusted fp's root with its
// owner. An unreadable trust file accepts nothing.
func acceptedForeign(s *core.System, fp Foreign) bool {
	if fp.mixed {
		return false
	}
	e, err := trust.EntryFor(s, fp.Dir)
	return err == nil && e != nil && e.Owner != nil && *e.Owner == fp.Owner
}
