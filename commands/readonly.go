package commands

// readOnly makes the rest of this run work on a System that refuses every
// write (core.System.ReadOnly): --dry-run and --check promise to write
// nothing, and the type they work on keeps the promise. Call it before
// the session is built.
func (a *App) readOnly(why string) {
	a.Sys = a.Sys.ReadOnly(why)
	a.sess = nil
}

// serving makes the rest of this run work on a System that serves agent
// alone (core.System.Serving): a derived copy, never a change to the one
// the run started with. Call it before the session is built.
func (a *App) serving(agent string) {
	a.Sys = a.Sys.Serving(agent)
	a.sess = nil
}
