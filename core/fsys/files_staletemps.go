package fsys

import (
	"os"
	"path/filepath"
)

// RemoveStaleTemps removes the temporary files of path's name that killed
// writers left, holding path's lock (WithLock), whatever their age: every
// writer of such a file holds that lock, so none of them can be a live
// one's. A run that has nothing else to write calls it, so a killed run's
// temporary record does not wait for the next change (nor get committed
// meanwhile). It looks without the lock first and takes the lock only when
// there is something to remove: a run with nothing to do costs one
// listing. The walk follows o.ConfirmShared and o.Within as a write would.
// Best effort: a leftover costs disk space, not data.
func (s *Files) RemoveStaleTemps(path string, o WriteOptions) {
	if !s.onOS() || s.writable("remove", path) != nil || !hasTemps(path) {
		return
	}
	s.WithLock(path, func() error {
		t, err := Walk(path, s.walkOptions(o.ConfirmShared, o.Within))
		if err != nil {
			return nil // a refused walk removes nothing
		}
		defer t.Close()
		t.RemoveStale()
		return nil
	})
}

// hasTemps reports whether path's folder holds a temporary name of path's.
// A look only: what it finds is removed after a walk under the lock.
func hasTemps(path string) bool {
	d, err := os.Open(filepath.Dir(path))
	if err != nil {
		return false
	}
	defer d.Close()
	names, _ := d.Readdirnames(-1)
	for _, n := range names {
		if of, ok := TempOf(n); ok && of == filepath.Base(path) {
			return true
		}
	}
	return false
}
