package core

import (
	"fmt"
	"io/fs"
)

// ForeignProject is a project directory whose .charter/ (or a settings file
// in it) another user owns. Like git's safe.directory, charter does not use
// it: on a shared host, a .charter/ in a sticky folder above the working
// directory would otherwise run its owner's commands as the victim. The
// user accepts one by trusting it (`charter trust --project-dir DIR`),
// which records the root with its owner.
type ForeignProject struct {
	Dir   string `json:"path"`  // the project root
	Path  string `json:"owned"` // the file or directory another user owns
	Owner int    `json:"owner"` // its uid
	Euid  int    `json:"euid"`  // the user charter runs as
	mixed bool   // its files have more than one foreign owner: never accepted
}

// Warning is the one line the CLI prints on stderr about p.
func (p ForeignProject) Warning() string {
	return fmt.Sprintf("ignoring the project %s: %s is owned by uid %d, not by you (uid %d); if you trust its owner, run `charter trust --project-dir %s`",
		p.Dir, p.Path, p.Owner, p.Euid, p.Dir)
}

// fileOwner is the uid that owns fi, when the file system says.
func fileOwner(fi fs.FileInfo) (int, bool) { return statOwner(fi.Sys()) }

// euid is the user charter runs as; false where owners are not checked.
func (s *System) euid() (int, bool) {
	if s.Euid != nil {
		return s.Euid(), true
	}
	return processEuid()
}

// foreignProject reports whether one of paths (dir/.charter and its
// settings files, with what Stat said of each in infos) is owned by another
// user than the one charter runs as. A file system that does not say who
// owns a file (an in-memory one, Windows) owns nothing.
func (s *System) foreignProject(dir string, paths []string, infos []fs.FileInfo) (ForeignProject, bool) {
	euid, ok := s.euid()
	if !ok {
		return ForeignProject{}, false
	}
	var fp ForeignProject
	found := false
	for i, p := range paths {
		uid, ok := fileOwner(infos[i])
		switch {
		case !ok || uid == euid:
		case !found:
			fp, found = ForeignProject{Dir: dir, Path: p, Owner: uid, Euid: euid}, true
		case uid != fp.Owner:
			return ForeignProject{Dir: dir, Path: p, Owner: uid, Euid: euid, mixed: true}, true
		}
	}
	return fp, found
}

// acceptedForeign reports whether the user trusted fp's root with its
// owner. An unreadable trust file accepts nothing.
func (s *System) acceptedForeign(fp ForeignProject) bool {
	if fp.mixed {
		return false
	}
	e, err := s.TrustEntryFor(fp.Dir)
	return err == nil && e != nil && e.Owner != nil && *e.Owner == fp.Owner
}

// warn tells the user something that does not stop the command.
func (s *System) warn(msg string) {
	if s.Warn != nil {
		s.Warn(msg)
	}
}
