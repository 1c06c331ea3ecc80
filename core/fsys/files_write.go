package fsys

import (
	"errors"
	"io"
	"io/fs"
	"time"

	"github.com/spf13/afero"
)

// File modes charter writes with: its files hold tokens and personal settings.
const (
	FileMode fs.FileMode = 0o600
	DirMode  fs.FileMode = 0o700
)

// WriteOptions says how a guarded write treats its target.
type WriteOptions struct {
	// ConfirmShared writes through a link inside the companion tree (at the
	// real location; the link stays). Without it such a write is refused
	// with *SharedWriteError.
	ConfirmShared bool
	// Owned marks charter's own files under the config root (settings.yaml
	// of a scope, dismissals.json, token, discovery): FileMode (0600) after
	// every write, even over an older file with a wider mode.
	Owned bool
	// NewMode is the mode (less the umask) of a new file that belongs to the
	// user or a repository, such as CLAUDE.md or a project's settings; an
	// existing one keeps its mode. 0 means FileMode. Directories created
	// for such a file get 0755 (less the umask) when NewMode lets others
	// read the file, else DirMode.
	NewMode fs.FileMode
	// Within is the project root when a repository chose the path (a
	// project target of apply, a project settings file): a link on the way
	// that leads out of it is refused with code outside_project before
	// anything is written (Options.Boundary). "" follows links as
	// ever: a user's dotfiles manager relies on that.
	Within string
	// Whole, with Within, is a whole file charter writes in the project (a
	// projected rule or skill file, a source, the record): a link inside
	// the project on the way is refused (code linked_target), as is the
	// repository's git folder by any path (code git_dir).
	Whole bool
	// LinkTo, with Within, is the files (relative to the project root) a
	// link inside the project may lead to for a file charter only edits
	// part of: CLAUDE.md -> AGENTS.md is one file with one block.
	LinkTo []string
	// Kind is what the file is, for the cap on reading the old one
	// (Kind); the zero Kind is an agent instruction file's.
	Kind Kind
	// Locked, for WriteAtomicOpts, says the caller holds WithLock of this
	// very path, as every writer of the file does: a temporary file of its
	// name can then be no live writer's, so each one a killed run left is
	// removed whatever its age (a record left beside it would be committed
	// with the project).
	Locked bool
	// Volatile, for WriteAtomicOpts, skips the fsyncs: a record whose loss
	// in a crash costs nothing and whose readers take an unreadable file
	// for none (what agents reported loading). Never for settings, sources
	// or anything a person wrote.
	Volatile bool
	// Written, for UpdateFileStream, runs once the new bytes are in the
	// temporary file (every check passed), before they are made durable
	// and renamed into place; not at all when nothing is written.
	Written func()
}

func (o WriteOptions) perm() Perm {
	if o.Owned {
		return Perm{Fixed: FileMode}
	}
	if o.NewMode == 0 {
		return Perm{New: FileMode}
	}
	return Perm{New: o.NewMode}
}

func (o WriteOptions) dirMode() fs.FileMode {
	if !o.Owned && o.NewMode&0o077 != 0 {
		return 0o755
	}
	return DirMode
}

func (s *Files) walkOptions(confirm bool, within string) Options {
	return Options{Home: s.guard().Home(), Confirmed: confirm, Boundary: within, GitDirs: s.gitDirs(within), held: s.heldFor()}
}

// WalkOptions is the walk a write to a path within (the project root, or
// "") takes; confirm lets it through links inside the companion tree.
func (s *Files) WalkOptions(confirm bool, within string) Options {
	return s.walkOptions(confirm, within)
}

// walkError turns the walk's refusal into the domain's shared-write error.
func (s *Files) walkError(target string, err error) error {
	var be *BlockedError
	if errors.As(err, &be) {
		return s.guard().Blocked(target, be.Link)
	}
	return err
}

// SharedLink returns the first symbolic link inside the companion tree on
// the way to target (the one a write would stop at), else the shared
// source target is or lies in, or "" when there is neither. Inside is
// decided by what the directories are on disk, so an alias spelling of the
// companion home is the tree too.
func (s *Files) SharedLink(target string) (string, error) {
	sh, err := s.SharedAt(target)
	return sh.Path, err
}

// Shared is what a write to a path would affect beyond this profile.
type Shared struct {
	Path    string   // the link on the way or the shared source; "" for none
	Readers []string // the profiles reading a shared source (nil for a link)
}

// SharedAt is SharedLink with the profiles that read a shared source.
func (s *Files) SharedAt(target string) (Shared, error) {
	if !s.onOS() {
		return Shared{}, nil
	}
	t, err := Walk(target, s.walkOptions(true, ""))
	if err != nil {
		return Shared{}, err
	}
	defer t.Close()
	if t.Shared != "" {
		return Shared{Path: t.Shared}, nil
	}
	return sharedOf(s.guard().Sources()(target, t)), nil
}

// SharedError is a refused write to a shared place (the domain's
// shared-write error): what it would affect.
type SharedError interface {
	error
	Shared() Shared
}

// sharedOf is what a shared-source refusal says; none for nil.
func sharedOf(err error) Shared {
	var se SharedError
	if errors.As(err, &se) {
		return se.Shared()
	}
	return Shared{}
}

// UpdateFile is UpdateFileOpts for a file whose mode is kept, with FileMode
// for a new one.
func (s *Files) UpdateFile(target string, confirmShared bool, update func(old []byte) ([]byte, error)) error {
	return s.UpdateFileOpts(target, WriteOptions{ConfirmShared: confirmShared}, update)
}

// UpdateFileOpts is the one guarded write path for user content. It walks
// to target (Walk: a link inside the companion tree stops it unless
// o.ConfirmShared), takes the file's lock, removes temporary files a killed
// writer left, reads the file, lets update compute the new bytes and
// replaces the file atomically in the directory it checked. update sees nil
// when the file does not exist; returning nil bytes writes nothing, and
// then no missing directory is created either. Never nest it inside
// WithLock.
func (s *Files) UpdateFileOpts(target string, o WriteOptions, update func(old []byte) ([]byte, error)) error {
	return s.UpdateFileParts(target, o, func(old []byte) ([][]byte, error) {
		data, err := update(old)
		if err != nil || data == nil {
			return nil, err
		}
		return [][]byte{data}, nil
	})
}

// UpdateFileParts is UpdateFileOpts for an update that returns the new file
// as parts written one after the other (nil: write nothing). A large file
// edited in the middle is then written from slices of old, with no second
// copy in memory.
func (s *Files) UpdateFileParts(target string, o WriteOptions, update func(old []byte) ([][]byte, error)) error {
	return s.UpdateFileStream(target, o, PartsUpdate(target, o.Kind, update))
}

// PartsUpdate is update, which takes the old file whole (capped for
// kind) and returns the new one's parts, as UpdateFileStream takes it.
func PartsUpdate(target string, kind Kind, update func(old []byte) ([][]byte, error)) func(f afero.File) (func(w io.Writer) error, error) {
	return func(f afero.File) (func(w io.Writer) error, error) {
		var old []byte
		if f != nil {
			var err error
			if old, err = ReadAll(f, target, kind); err != nil {
				return nil, err
			}
		}
		parts, err := update(old)
		if err != nil || parts == nil {
			return nil, err
		}
		return func(w io.Writer) error { return writeParts(w, parts) }, nil
	}
}

// UpdateFileStream is UpdateFileOpts for an update that reads the file as a
// stream (nil: it does not exist) and returns what writes the new one (nil:
// write nothing). A large file is then never held in memory: the update can
// copy from old to the new file, which the kernel does without a copy here.
func (s *Files) UpdateFileStream(target string, o WriteOptions, update func(old afero.File) (func(w io.Writer) error, error)) error {
	return s.guard().NotWritable(target, s.updateFileStream(target, o, update))
}

func (s *Files) updateFileStream(target string, o WriteOptions, update func(old afero.File) (func(w io.Writer) error, error)) error {
	if err := s.writable("write", target); err != nil {
		return err
	}
	if !s.onOS() {
		return s.memUpdate(target, o, update)
	}
	opts := s.writeWalk(o)
	t, unlock, err := s.lockTarget(target, opts)
	if err != nil {
		return err
	}
	locked := true
	defer func() {
		if locked {
			unlock()
		}
		t.Close()
	}()
	if !o.ConfirmShared {
		if err := s.guard().Sources()(target, t); err != nil {
			return err
		}
	}
	t.RemoveStale() // best effort: a leftover costs disk space, not data
	f, err := t.Open(o.Kind)
	if err != nil {
		return err
	}
	var old afero.File
	if f != nil {
		defer f.Close()
		old = Capped(f, target, o.Kind)
	}
	fill, err := update(old)
	if err != nil || fill == nil {
		return err
	}
	w := t
	if t.Missing {
		opts.Create, opts.DirMode = true, o.dirMode()
		if w, err = Walk(target, opts); err != nil {
			return s.walkError(target, err)
		}
		defer w.Close()
		// The lock is keyed by the path the first walk found; the created
		// directory must be that path.
		if w.Missing || w.Dir != t.Dir || w.Name != t.Name {
			return &ChangedError{Path: target, What: "changed on the way"}
		}
	}
	w.BeforeRename, w.Written, w.DirSyncLater = s.BeforeRename, o.Written, true
	if err := w.WriteFunc(fill, o.perm()); err != nil {
		return err
	}
	// The new name is in place and no temporary file is left: the next
	// writer of the folder may go on while its name is made durable.
	unlock()
	locked = false
	SyncDir(w)
	return nil
}

// WriteAtomic writes one of charter's own state files (token, discovery):
// 0600 whatever mode an older file had, through any link (server state is
// not guarded, SPEC §8) without replacing it, atomically. It takes no lock;
// callers that race hold WithLock.
func (s *Files) WriteAtomic(path string, data []byte) error {
	return s.WriteAtomicOpts(path, WriteOptions{ConfirmShared: true, Owned: true}, data)
}

// StaleTempAge is how long a temporary file of charter's pattern must have
// been left untouched before a write that holds no lock (WriteAtomicOpts)
// takes it for a killed writer's and removes it.
const StaleTempAge = time.Hour

// WriteAtomicOpts replaces path with data as UpdateFileOpts would, without
// reading it first and without a lock: the walk, the mode rules and the
// atomic replacement in the checked directory are the same. Never write one
// file both here and with UpdateFile*: that cleanup, under the lock, takes
// every temporary file of the name for stale.
func (s *Files) WriteAtomicOpts(path string, o WriteOptions, data []byte) error {
	return s.WriteAtomicFunc(path, o, func(w io.Writer) error { return writeParts(w, [][]byte{data}) })
}

// WriteAtomicFunc is WriteAtomicOpts of what fill writes (a large file
// encoded into its temporary file); an error from fill leaves no file.
func (s *Files) WriteAtomicFunc(path string, o WriteOptions, fill func(w io.Writer) error) error {
	return s.guard().NotWritable(path, s.writeAtomicOpts(path, o, fill))
}

func (s *Files) writeAtomicOpts(path string, o WriteOptions, fill func(w io.Writer) error) error {
	if err := s.writable("write", path); err != nil {
		return err
	}
	if !s.onOS() {
		return s.memWrite(path, o, fill)
	}
	opts := s.writeWalk(o)
	opts.Create, opts.DirMode = true, o.dirMode()
	t, err := Walk(path, opts)
	if err != nil {
		return s.walkError(path, err)
	}
	defer t.Close()
	if !o.ConfirmShared {
		if err := s.guard().Sources()(path, t); err != nil {
			return err
		}
	}
	// Without o.Locked no lock of path is known to be held here (a caller
	// may hold WithLock of this file or another, so none can be taken), so
	// a fresh temporary file of the name may be a live writer's: only one
	// untouched for StaleTempAge is removed. A write takes milliseconds;
	// the hour leaves room for a slow disk and a network file system's
	// clock. A writer stuck even longer only sees its rename fail: the
	// file is never half written. Best effort either way: a leftover costs
	// disk space, not data.
	if o.Locked {
		t.RemoveStale()
	} else {
		t.RemoveStaleBefore(s.Now().Add(-StaleTempAge))
	}
	t.BeforeRename, t.Volatile = s.BeforeRename, o.Volatile
	return t.WriteFunc(fill, o.perm())
}
