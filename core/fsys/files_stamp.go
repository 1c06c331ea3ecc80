package fsys

// StampEach is the stamp of each path that is a plain regular file in a
// folder the batch holds (no link on the way, as ReadEach's fast path
// reads it); ok[i] is false for every other path, which the caller reads.
func (r *Reader) StampEach(paths []string) (stamps []Stamp, ok []bool) {
	stamps, ok = make([]Stamp, len(paths)), make([]bool, len(paths))
	if r.b == nil {
		return stamps, ok
	}
	folders, names := make([]*Target, len(paths)), make([]string, len(paths))
	for start := 0; start < len(paths); {
		end := r.chunk(paths, start)
		for i := start; i < end; i++ {
			folders[i], names[i], _ = r.b.Folder(paths[i])
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
	return stamps, ok
}
