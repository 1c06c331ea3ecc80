package content

import (
	"io/fs"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/agentkit/charter/core/fsys"
)

// skillScan is one skill folder as listed: its problems, or the job that
// reads it with what its files count for the library's caps; or the
// error that stops the load there.
type skillScan struct {
	slots []slot
	count tally
	err   error
}

// isItem: the folder is an item (its one slot a job), not problems.
func (sc skillScan) isItem() bool {
	return sc.err == nil && len(sc.slots) == 1 && sc.slots[0].job != nil
}

// skill lists one skill folder through the loader's reader and takes it.
func (l *loader) skill(ly Layer, dir, name string, e fs.FileInfo) error {
	return l.take(ly, dir, l.scanSkill(l.reader(ly.Within), ly, dir, name, e))
}

// take adds a listed skill folder to the loader: its problems, or its job
// once the library's caps allow it.
func (l *loader) take(ly Layer, dir string, sc skillScan) error {
	if sc.err != nil {
		return sc.err
	}
	if sc.isItem() {
		if err := l.add(ly, dir, sc.count); err != nil {
			return err
		}
	}
	l.slots = append(l.slots, sc.slots...)
	return nil
}

// maxListers bounds the goroutines of skills, each with its reader's
// descriptors (the folders on the way), whatever the cores.
const maxListers = 4

// skills lists the skill folders among entries of the folder dir from a
// goroutine per core (at most maxListers), each through its own reader (a
// reader is one goroutine's), and takes them in order: the problems, jobs
// and first error of one folder after another. A folder is a few
// listings and a stat of each file; a library of hundreds of skills
// listed them one by one for most of its load. Once the folders listed
// pass the library's caps, or one fails, or ctx is cancelled, no further
// folder is started: a hostile library is listed little further than one
// after another.
func (l *loader) skills(ly Layer, dir string, entries []fs.FileInfo) error {
	entries = slices.DeleteFunc(slices.Clone(entries), func(e fs.FileInfo) bool { return strings.HasPrefix(e.Name(), ".") })
	scans := make([]skillScan, len(entries))
	var next, files, bytes atomic.Int64
	files.Store(int64(l.total.files))
	bytes.Store(l.total.bytes)
	var stop atomic.Bool
	work := func(r *fsys.Reader) {
		for !stop.Load() {
			i := int(next.Add(1) - 1)
			if i >= len(entries) {
				return
			}
			name := entries[i].Name()
			path := l.sys.Paths.Join(dir, name)
			sc := l.scanSkill(r, ly, path, name, entries[i])
			r.Release(path) // the skills folder's chain stays: a few descriptors a lister
			scans[i] = sc
			// As take counts: only a folder that is an item.
			over := sc.isItem() && (files.Add(int64(sc.count.files)) > MaxLibraryFiles || bytes.Add(sc.count.bytes) > MaxLibraryBytes)
			if over || sc.err != nil || l.ctx.Err() != nil {
				stop.Store(true)
			}
		}
	}
	var wg sync.WaitGroup
	for range min(len(entries), runtime.GOMAXPROCS(0), maxListers) - 1 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := l.sys.Reader(ly.Within)
			defer r.Close()
			work(r)
		}()
	}
	work(l.reader(ly.Within))
	wg.Wait()
	// Every index handed out was listed whole: they are a prefix.
	for i := range min(int(next.Load()), len(entries)) {
		if err := l.take(ly, l.sys.Paths.Join(dir, entries[i].Name()), scans[i]); err != nil {
			return err
		}
	}
	return l.ctx.Err()
}

// scanSkill lists a skill's folder whole: SKILL.md and every other file,
// kept as they are. A link inside the folder is an error: a skill is
// copied to the agents, and a link would carry whatever it points at with
// it. It touches nothing of the loader's but its context, so folders can
// be listed at once, each through its own reader r.
func (l *loader) scanSkill(r *fsys.Reader, ly Layer, dir, name string, e fs.FileInfo) (sc skillScan) {
	bad := func(path, format string, args ...any) {
		sc.slots = append(sc.slots, problem(path, format, args...))
	}
	if e.Mode()&fs.ModeSymlink != 0 {
		fi, err := l.sys.Fs.Stat(dir)
		if err == nil {
			e = fi
		}
	}
	if !e.IsDir() {
		bad(dir, "is not a skill: skills/ holds one folder per skill, with a SKILL.md in it")
		return sc
	}
	if msg := CheckName(name); msg != "" {
		bad(dir, "%s", msg)
		return sc
	}
	var others []File
	var paths []string
	hasSkill := false
	var walk func(rel string) error
	walk = func(rel string) error {
		entries, err := listIn(r, l.sys.Paths.Join(dir, rel), bad)
		if err != nil {
			return err
		}
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), ".") {
				continue
			}
			rn := e.Name()
			if rel != "" {
				rn = rel + "/" + rn
			}
			path := l.sys.Paths.Join(dir, rn)
			switch m := e.Mode(); {
			case m&fs.ModeSymlink != 0:
				bad(path, "is a link inside a skill folder: a skill is copied whole, so put the file itself there")
			case m.IsDir():
				if err := walk(rn); err != nil {
					return err
				}
			case !m.IsRegular():
				bad(path, "is %s: a skill folder holds only files and folders", fsys.Describe(m))
			case rn == SkillFile:
				hasSkill = true
				if err := sc.count.addSkillFile(dir, e.Size()); err != nil {
					return err
				}
			default:
				others, paths = append(others, File{Rel: rn, Exec: m&0o111 != 0}), append(paths, path)
				if err := sc.count.addSkillFile(dir, e.Size()); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if sc.err = walk(""); sc.err != nil || len(sc.slots) > 0 {
		return sc
	}
	if !hasSkill {
		bad(dir, "has no %s: a skill folder holds its %s with name and description", SkillFile, SkillFile)
		return sc
	}
	j := &job{ly: ly, kind: KindSkill, name: name, path: l.sys.Paths.Join(dir, SkillFile)}
	order := make([]int, len(others))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return strings.Compare(others[a].Rel, others[b].Rel) })
	for _, i := range order {
		j.files, j.paths = append(j.files, others[i]), append(j.paths, paths[i])
	}
	sc.slots = append(sc.slots, slot{job: j})
	return sc
}
