package content

import (
	"fmt"
	"io/fs"

	"github.com/agentkit/charter/core"
)

// Each source file is held to 8 MiB (fsys.KindContent); these caps hold a
// skill folder and the whole library of one load, so that a repository of
// many files (or of sparse ones: 150 files of 8 MiB take 24 KB on disk)
// cannot make a list or an apply hold gigabytes. They are counted from the
// listings, before anything is read, at each file's listed (apparent)
// size, which is what a read would hold. Sizes are the listing's: a file
// that grows after it was listed is still held to its own 8 MiB.
//
// A skill's cap sits above what hosts of skills accept (200 files and
// 1–20 MB a skill) and far above the largest published skills (the OOXML
// ones: about 60 files, a few MB); the library's holds dozens of skills at
// the cap or thousands of ordinary items, and keeps a load's memory a
// fraction of a small machine's.
const (
	MaxSkillFiles   = 256       // files of one skill folder, SKILL.md included
	MaxSkillBytes   = 32 << 20  // their listed sizes
	MaxLibraryFiles = 10000     // files of every item of every layer read at once
	MaxLibraryBytes = 256 << 20 // their listed sizes
	// MaxFolderEntries bounds one listing (dotfiles included), so that a
	// folder of a million names is refused without being held.
	MaxFolderEntries = MaxLibraryFiles
)

// tally counts files and their listed bytes.
type tally struct {
	files int
	bytes int64
}

// listedSize is what reading the entry at path would hold: a regular
// file's size; a link's target's (a rule at the user's layers may be a
// link, and is read through it); nothing for what is not read.
func (l *loader) listedSize(path string, e fs.FileInfo) int64 {
	m := e.Mode()
	if m&fs.ModeSymlink != 0 {
		fi, err := l.sys.Fs.Stat(path)
		if err != nil || !fi.Mode().IsRegular() {
			return 0 // the read reports it
		}
		return fi.Size()
	}
	if !m.IsRegular() {
		return 0
	}
	return e.Size()
}

// addSkillFile counts one file of the skill folder dir, past the folder's
// caps an error naming it.
func (t *tally) addSkillFile(dir string, size int64) error {
	t.files++
	t.bytes += size
	switch {
	case t.files > MaxSkillFiles:
		return core.Errorf(core.CodeLibraryTooLarge, "skill folder %s holds more than %d files, the most charter reads of one skill: keep only what the agent needs in it (a dependency, build or data folder belongs outside it, or under a name starting with \".\", which charter skips), or split it into several skills",
			dir, MaxSkillFiles)
	case t.bytes > MaxSkillBytes:
		return core.Errorf(core.CodeLibraryTooLarge, "skill folder %s holds more than %s, the most charter reads of one skill (each file counts at its listed size, a sparse file whole): remove the large files the agent does not need (`ls -lRS %s` lists them largest first), or split it into several skills",
			dir, mib(MaxSkillBytes), dir)
	}
	return nil
}

// add counts one item's files (at: its file, or a skill's folder) into
// the library; past a cap, an error naming where it was passed. It is
// called once per item, so a cancelled load stops here.
func (l *loader) add(ly Layer, at string, t tally) error {
	if err := l.ctx.Err(); err != nil {
		return err
	}
	l.total.files += t.files
	l.total.bytes += t.bytes
	in := ""
	if ly.Dir != "" {
		in = fmt.Sprintf(", in the %s folder %s", ly.Name, ly.Dir)
	}
	switch {
	case l.total.files > MaxLibraryFiles:
		return core.Errorf(core.CodeLibraryTooLarge, "the rules, skills, commands and subagents charter reads here hold more than %d files (passed at %s%s): remove the items you do not use, or the files a skill does not need",
			MaxLibraryFiles, at, in)
	case l.total.bytes > MaxLibraryBytes:
		return core.Errorf(core.CodeLibraryTooLarge, "the rules, skills, commands and subagents charter reads here hold more than %s (passed at %s%s): remove the large files the agents do not need (`ls -lRS FOLDER` lists them largest first)",
			mib(MaxLibraryBytes), at, in)
	}
	return nil
}

// overfull is the error for a listing of more than MaxFolderEntries.
func overfull(dir string) error {
	return core.Errorf(core.CodeLibraryTooLarge, "%s holds more than %d entries, the most charter lists of one content folder: move what is not a rule, skill, command or subagent (or a skill's own file) out of it",
		dir, MaxFolderEntries)
}

func mib(n int64) string { return fmt.Sprintf("%d MiB", n>>20) }
