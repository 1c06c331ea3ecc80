package commands

// readOnly makes the rest of this run work on a System that refuses every
// write (core.System.ReadOnly): --dry-run and --check promise to write
// nothing, and the type they work on keeps the promise. Call it before
// the session is built.
func (a *App) readOnly(why string) {
	a.Sys = a.Sys.ReadOnly(why)
	a.sess = nil
}
