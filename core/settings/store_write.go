package settings

// The write transaction: precheck, the lock, If-Match and the atomic replace.

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/fsys"
	tags "github.com/agentkit/charter/helpers/etag"
)

// Write applies u to the scope file: validate, check for a shared link,
// then under the file's lock check If-Match and replace the file
// atomically. Comments, key order and unknown keys survive. A file with
// problems is not rewritten, except when the write removes every one of
// them: setting or unsetting a key whose value is bad repairs it.
func (st *Store) Write(u Update) (*Snapshot, error) {
	r := st.WriteAll([]Update{u})[0]
	return r.Snapshot, r.Err
}

// Result is one update's outcome in WriteAll.
type Result struct {
	Snapshot *Snapshot // the settings right after this update
	Err      error
}

// WriteAll applies updates as Write applies each, in order, each checked
// against the file as the ones before it left it, and writes the file once
// for all of them (once per ConfirmShared value): the outcome is that of
// the updates written one after the other, at the cost of one write. An
// update that fails leaves the file as it was for the next one; when the
// write itself fails, every update that was in it fails with it.
func (st *Store) WriteAll(us []Update) []Result {
	res := make([]Result, len(us))
	var groups [2][]int // by ConfirmShared: the two take different checks
	for i, u := range us {
		if err := st.precheck(u); err != nil {
			res[i].Err = err
			continue
		}
		c := 0
		if u.ConfirmShared {
			c = 1
		}
		groups[c] = append(groups[c], i)
	}
	for c, idx := range groups {
		if len(idx) > 0 {
			st.writeGroup(us, idx, c == 1, res)
		}
	}
	return res
}

// precheck is what an update is refused for before any file is read.
func (st *Store) precheck(u Update) error {
	var problems []Problem
	for _, key := range u.Unset {
		if _, ok := Lookup(key); !ok {
			problems = append(problems, unknownKey(key))
		}
	}
	for key, v := range u.Set {
		k, ok := Lookup(key)
		if !ok {
			problems = append(problems, unknownKey(key))
			continue
		}
		if err := k.check(v); err != nil {
			problems = append(problems, err.(*ValidationError).Problems...)
		}
	}
	for key := range u.Base {
		if _, ok := Lookup(key); !ok {
			problems = append(problems, unknownKey(key))
		}
	}
	if len(problems) > 0 {
		sort.Slice(problems, func(i, j int) bool { return problems[i].Key < problems[j].Key })
		return &ValidationError{Problems: problems}
	}
	if u.Base != nil {
		var missing []string
		for _, key := range append(sortedKeys(u.Set), u.Unset...) {
			if _, ok := u.Base[key]; !ok {
				missing = append(missing, key)
			}
		}
		if len(missing) > 0 {
			return core.Errorf(core.CodePreconditionRequired, "base has no value for %s: send in base the value read for every key set or unset", strings.Join(missing, ", "))
		}
	}

	// The policy wins at every layer: refuse before anything is touched.
	if err := st.policy.CheckSet(u.Set); err != nil {
		return err
	}
	return checkPolicyItems(st.sys, st.policy, u.Set, nil)

}

// writeGroup runs the updates us[idx] under one lock and one write.
func (st *Store) writeGroup(us []Update, idx []int, confirm bool, res []Result) {
	path := st.Path()
	opts := st.WriteOptions(confirm)
	if slices.ContainsFunc(idx, func(i int) bool { return len(us[i].Set) > 0 }) {
		if err := st.ListLocal(confirm); err != nil {
			for _, i := range idx {
				res[i].Err = err
			}
			return
		}
	}
	var created bool
	var applied []int // updates whose outcome depends on the write
	err := st.sys.UpdateFileOpts(path, opts, func(old []byte) ([]byte, error) {
		ls, at, err := st.otherLayers()
		if err != nil {
			return nil, err
		}
		var data []byte
		data, applied = st.applyGroup(path, ls, at, old, old != nil, us, idx, res)
		if old == nil && data != nil && len(st.header) > 0 {
			// The file is created: the updates that passed run again on
			// the header, so that every snapshot (and ETag) is that of the
			// file written. Their If-Match held against the missing file.
			again := slices.Clone(us)
			for _, i := range applied {
				again[i].IfMatch, again[i].IfNoneMatch = "", ""
			}
			data, applied = st.applyGroup(path, ls, at, st.header, false, again, applied, res)
		}
		if data == nil || bytes.Equal(data, old) {
			return nil, nil // nothing changed (or still nothing): keep the disk as it is
		}
		created = old == nil
		return data, nil
	})
	if err != nil {
		for _, i := range applied {
			res[i] = Result{Err: err}
		}
		if len(applied) == 0 {
			for _, i := range idx {
				if res[i].Err == nil {
					res[i].Err = err
				}
			}
		}
		return
	}
	if created && st.target == LayerProjectLocal {
		// Listed before the write; again in case the file was removed
		// between that check and the write, and someone removed the line.
		if err := st.ignoreLocal(confirm); err != nil {
			for _, i := range applied {
				res[i] = Result{Err: fmt.Errorf("%s was written, but %w", path, err)}
			}
		}
	}
}

// applyGroup applies us[idx] one after the other to the file's text start
// (exists: whether the file is there) and sets each one's result. It
// returns the text after them (nil when nothing changed a missing file)
// and the updates applied.
func (st *Store) applyGroup(path string, ls []*layer, at int, start []byte, exists bool, us []Update, idx []int, res []Result) ([]byte, []int) {
	var applied []int
	cur := loadLayer(path, start)
	cur.exists = exists
	data := start
	for _, i := range idx {
		next, snap, err := st.apply(path, ls, at, cur, data, us[i])
		if err != nil {
			res[i] = Result{Err: err}
			// A failed edit may have left the tree half changed.
			cur = loadLayer(path, data)
			cur.exists = exists
			continue
		}
		res[i] = Result{Snapshot: snap}
		applied = append(applied, i)
		cur, data = next, next.data
		exists = exists || next.exists
	}
	if !exists {
		return nil, applied
	}
	return data, applied
}

// apply checks u against cur, the file as it stands (its text is data),
// and edits it. ls are the layers, cur's place at. next is the edited
// layer (its text may be data itself); snap the settings after u.
func (st *Store) apply(path string, ls []*layer, at int, cur *layer, data []byte, u Update) (next *layer, snap *Snapshot, err error) {
	ls = slices.Clone(ls)
	ls[at] = cur
	if u.IfMatch != "" {
		if tag, whole := etag([]*layer{cur}), st.etag(ls); !tags.Matches(u.IfMatch, tag, whole) {
			return nil, nil, &StaleError{Current: tag}
		}
	}
	if u.IfNoneMatch != "" {
		if tag, whole := etag([]*layer{cur}), st.etag(ls); tags.NoneMatches(u.IfNoneMatch, tag, whole) {
			return nil, nil, &StaleError{Current: tag, NoneMatch: true}
		}
	}
	if u.Base != nil {
		if err := st.checkBase(u.Base, ls); err != nil {
			return nil, nil, err
		}
	}
	// charter never rewrites a file it cannot read, nor one that would
	// keep a problem after this write. The refusal lists every problem,
	// so that none of them looks fixable on its own when it is not.
	all := slices.Clone(cur.problems)
	for i, l := range ls {
		if i != at {
			all = append(all, l.problems...)
		}
	}
	if slices.ContainsFunc(all, func(p FileProblem) bool { return !p.repairable || !u.writes(p.Key) }) {
		return nil, nil, fileError(all, st.layers())
	}
	out, next, err := edit(path, cur, data, u)
	if err != nil {
		return nil, nil, err
	}
	ls[at] = next
	if snap, err = st.snapshot(ls); err != nil {
		return nil, nil, err
	}
	if bytes.Equal(out, data) {
		next.data, next.exists = data, cur.exists // unchanged: a missing file stays missing
	}
	return next, snap, nil
}

// ProjectFileMode is the mode of a new file in a project (less the umask):
// project files are the team's, read by everyone who checks it out.
const ProjectFileMode = 0o644

// ListLocal makes sure .charter/.gitignore lists the project-local file
// before that file is first written, so that no interruption (a kill, a
// full disk) can leave a personal file git would commit. It does nothing
// for another layer or a personal file that exists (whose line the user
// may have removed on purpose). Every write of the file calls it first.
func (st *Store) ListLocal(confirm bool) error {
	if st.target != LayerProjectLocal || st.project == nil {
		return nil
	}
	path := st.Path()
	if _, err := st.sys.Fs.Stat(path); !fsys.IsAbsent(err) {
		return nil // there already, or the write will say why not
	}
	if err := st.sys.Confine(st.project.Dir, path); err != nil {
		return err // the write's own refusal (a .charter that leads out)
	}
	if err := st.ignoreLocal(confirm); err != nil {
		return fmt.Errorf("%s was not written, so that git never sees it unlisted: %w", path, err)
	}
	return nil
}

// ignoreLocal makes sure .charter/.gitignore lists the project-local file,
// so that a personal override is never committed by accident.
func (st *Store) ignoreLocal(confirm bool) error {
	p := st.sys.Paths.Join(st.project.Dir, core.ProjectDirName, ".gitignore")
	err := st.sys.UpdateFileOpts(p, fsys.WriteOptions{ConfirmShared: confirm, NewMode: ProjectFileMode, Within: st.project.Dir}, func(old []byte) ([]byte, error) {
		for _, line := range strings.Split(string(old), "\n") {
			switch strings.TrimSpace(line) {
			case core.ProjectLocalFile, "/" + core.ProjectLocalFile:
				return nil, nil // already ignored
			}
		}
		out := slices.Clone(old)
		if len(out) > 0 && out[len(out)-1] != '\n' {
			out = append(out, '\n')
		}
		return append(out, core.ProjectLocalFile+"\n"...), nil
	})
	if err != nil {
		return fmt.Errorf("listing it in %s failed: %w (add the line %s there yourself)", p, err, core.ProjectLocalFile)
	}
	return nil
}

// checkBase is the per-key precondition: each key of base must still have
// that effective value over ls (a key whose value in a file is bad counts
// as not having it, so the write goes on to be refused or repair it).
func (st *Store) checkBase(base map[string]any, ls []*layer) error {
	var conflicts []string
	for key, want := range base {
		if !sameValue(effective(key, ls), want) {
			conflicts = append(conflicts, key)
		}
	}
	if len(conflicts) == 0 {
		return nil
	}
	sort.Strings(conflicts)
	e := &ConflictError{Keys: conflicts, Current: etag(ls)}
	if snap, err := st.snapshot(ls); err == nil {
		doc := st.Doc(snap)
		e.Doc = &doc
	}
	return e
}

// writes reports whether the update sets or unsets key.
func (u Update) writes(key string) bool {
	_, set := u.Set[key]
	return set || slices.Contains(u.Unset, key)
}

// otherLayers reads every layer file but the target's, whose slot (at) it
// leaves nil for the caller to fill.
func (st *Store) otherLayers() (ls []*layer, at int, err error) {
	ps := st.layers()
	ls, at = make([]*layer, len(ps)), -1
	target := st.Path()
	for i, p := range ps {
		if p == target && at < 0 {
			at = i
			continue
		}
		if ls[i], err = st.readLayer(p); err != nil {
			return nil, 0, err
		}
	}
	if at < 0 {
		return nil, 0, fmt.Errorf("write %s: not a layer of this store", target)
	}
	return ls, at, nil
}
