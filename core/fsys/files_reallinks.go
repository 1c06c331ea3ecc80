package fsys

// RealPath is p with every link resolved, for comparing with a path an
// agent recorded after resolving it itself (Codex keys a hook's review by
// the path it read). On a file system without links p is already real.
func (s *Files) RealPath(p string) (string, error) { return s.evalSymlinks(p) }
