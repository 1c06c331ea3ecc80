package fsys

// StampEach is the stamp of each path that is a plain regular file in a
// folder the batch holds (no link on the way, as ReadEach's fast path
// reads it); ok[i] is false for every other path, which the caller reads
// unless absent[i]: its folder does not exist, on a path with no link on
// the way (ReadEach would find nothing there either).
func (r *Reader) StampEach(paths []string) (stamps []Stamp, ok, absent []bool) {
	stamps, ok, absent = make([]Stamp, len(paths)), make([]bool, len(paths)), make([]bool, len(paths))
	if r.b == nil {
		return stamps, ok, absent
	}
	folders, names := make([]*Target, len(paths)), make([]string, len(paths))
	for start := 0; start < len(paths); {
		end := r.chunk(paths, start)
		for i := start; i < end; i++ {
			folders[i], names[i], absent[i] = r.b.Folder(paths[i])
		}
		Parallel(end-start, func(j int) error {
			if i := start + j; folders[i] != nil {
				stamps[i], ok[i] = folders[i].StampIn(names[i])
			}
			return nil
		})
		r.b.Release(next(paths, end))
		start = end
	}
	return stamps, ok, absent
}
