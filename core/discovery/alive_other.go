//go:build !unix

package discovery

// ProcessAlive cannot ask cheaply here (Windows has no signal 0): callers
// go on and try the port, which answers only if the server lives.
func ProcessAlive(pid int) bool { return pid > 0 }
