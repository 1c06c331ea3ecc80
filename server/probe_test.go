package server

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/agentkit/charter/core/session"
)

// Hub is what session's ping --server and doctor reach a scope's server
// through: the states doctor reports, and the server's own ping document.
func TestHubProbeAndPing(t *testing.T) {
	e := newEnv(t)
	hub := Hub{}
	path := DiscoveryPath(e.sys, e.scope)
	if st := hub.Probe(e.sys, e.scope); st != (session.ServerState{Discovery: path}) {
		t.Errorf("no file: %+v", st)
	}
	var ns *NoServerError
	if _, err := hub.Ping(context.Background(), e.sys, e.scope); !errors.As(err, &ns) || ns.Path != path {
		t.Errorf("ping without a server: %v", err)
	}

	r := e.start(t, 0)
	if st := hub.Probe(e.sys, e.scope); !st.Running || st.URL != r.URL() || st.PID != os.Getpid() || st.Stale != "" {
		t.Errorf("running: %+v", st)
	}
	sp, err := hub.Ping(context.Background(), e.sys, e.scope)
	if err != nil {
		t.Fatal(err)
	}
	if sp.URL != r.URL() || sp.PID != os.Getpid() || sp.Doc.Scope.Path != e.scope.Path || !strings.Contains(string(sp.Raw), `"configRoot"`) {
		t.Errorf("ping: %+v (%s)", sp, sp.Raw)
	}
	if err := r.stop(); err != nil {
		t.Fatal(err)
	}

	for name, c := range map[string]struct {
		data  string
		stale string
	}{
		"dead pid":    {mustMarshal(t, Discovery{PID: deadPID(t), Port: 41000}), "is not running"},
		"silent port": {mustMarshal(t, Discovery{PID: os.Getpid(), Port: freePort(t)}), "nothing answers on port"},
		"unreadable":  {"{not json", "it cannot be read: "},
	} {
		if err := e.sys.WriteAtomic(path, []byte(c.data)); err != nil {
			t.Fatal(err)
		}
		if st := hub.Probe(e.sys, e.scope); st.Running || !strings.Contains(st.Stale, c.stale) || st.Discovery != path {
			t.Errorf("%s: %+v, want stale %q", name, st, c.stale)
		}
	}
}

func mustMarshal(t *testing.T, d Discovery) string {
	t.Helper()
	b, err := d.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
