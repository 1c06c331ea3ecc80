package projection

import (
	"maps"
	"time"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/fsys"
)

// statPlan is what a plan knows of the stat cache: the cache, the entries
// the next run may trust (every planned target whose sum is known from a
// settled stamp), and whether they differ from what the cache holds.
type statPlan struct {
	cache   *statCache
	paths   []string // the record's paths, in plan order
	entries map[string]stamped
	dirty   bool
	// written is each file the run wrote, by path, as saveStat stamped it
	// after the renames, racy or not: the plan memo's stamp of it (Files).
	written map[string]fsys.Stamp
	// after is each of the plan's writes as its write stamped it, once
	// renamed, so that saveStat need not walk to every output folder
	// again; nil when not taken.
	after []stampAt
}

// stampAt is a stamp with the clock read just before it (what its
// raciness is judged against); ok is false when there is none.
type stampAt struct {
	st    fsys.Stamp
	taken time.Time
	ok    bool
}

// readTargets is what each target holds on disk. A target whose stamp is
// the cache's is known without reading it; every other one is read (as
// ReadEach reads it) and, when its stamp is settled, learned.
func (p *Plan) readTargets(sys *core.System, rd *fsys.Reader, todo []Placed, paths, recPaths, sums []string) ([]seen, error) {
	disks := make([]seen, len(todo))
	cache := loadStatCache(sys, p.req)
	if cache == nil {
		err := rd.ReadEach(paths, fsys.KindInstructions, func(i int, disk []byte) { disks[i] = see(disk, todo[i].Data, true) })
		return disks, err
	}
	// The kernel's clock, never an injected one: a stamp is judged
	// against the time the kernel gave the file.
	taken := time.Now()
	stamps, ok, absent := rd.StampEach(paths)
	p.stat = statPlan{cache: cache, paths: recPaths, entries: make(map[string]stamped, len(todo))}
	var rest []int
	for i := range todo {
		sum, hit := cache.hit(recPaths[i], stamps[i], ok[i])
		switch {
		case absent[i]: // in a folder not there (a cold run's): nothing to read
			continue
		case !hit:
			rest = append(rest, i)
			continue
		}
		disks[i] = seen{exists: true, same: sum == sums[i], sum: sum}
		p.stat.entries[recPaths[i]] = stamped{sum: sum, st: stamps[i]}
	}
	if len(rest) > 0 {
		restPaths := make([]string, len(rest))
		for j, i := range rest {
			restPaths[j] = paths[i]
		}
		err := rd.ReadEach(restPaths, fsys.KindInstructions, func(j int, disk []byte) {
			disks[rest[j]] = see(disk, todo[rest[j]].Data, true)
		})
		if err != nil {
			return nil, err
		}
		for _, i := range rest {
			// Stamped before it was read: a change in between shows in the
			// next run's stamp, so the sum is never trusted for it.
			if !disks[i].exists || !ok[i] || stamps[i].Racy(taken) {
				continue
			}
			sum := disks[i].sum
			if disks[i].same {
				sum = sums[i]
			}
			p.stat.entries[recPaths[i]] = stamped{sum: sum, st: stamps[i]}
		}
	}
	p.stat.dirty = !maps.Equal(p.stat.entries, cache.entries)
	return disks, nil
}

// saveStat keeps what this run learned for the next: after a Run that
// wrote, the written files' new stamps (those settled by now).
func (p *Plan) saveStat(sys *core.System, wrote bool) {
	s := &p.stat
	if s.cache == nil {
		return
	}
	if wrote && len(p.writes) > 0 {
		paths := make([]string, len(p.writes))
		for i, f := range p.writes {
			paths[i] = f.Path
		}
		after := s.after
		if len(after) != len(paths) {
			rd := sys.WholeReader(p.req.Root)
			taken := time.Now()
			stamps, ok, _ := rd.StampEach(paths)
			rd.Close()
			after = make([]stampAt, len(paths))
			for i := range after {
				after[i] = stampAt{stamps[i], taken, ok[i]}
			}
		}
		s.written = make(map[string]fsys.Stamp, len(paths))
		for i, f := range p.writes {
			a := after[i]
			if a.ok {
				s.written[f.Path] = a.st
			}
			delete(s.entries, f.rec)
			if a.ok && !a.st.Racy(a.taken) {
				s.entries[f.rec] = stamped{sum: f.sum, st: a.st}
			}
		}
		s.dirty = true
	}
	if s.dirty {
		s.cache.save(sys, s.paths, s.entries)
	}
}
