package core

// ServerState is what a probe found out about a scope's server: the
// server package probes (it owns the discovery file), doctor reports it.
// It lives here so that neither imports the other.
type ServerState struct {
	Discovery string // the discovery file's path
	Running   bool
	URL       string
	PID       int
	// Stale says why a discovery file that exists does not count; "" when
	// there is none or its server runs.
	Stale string
}
