package session

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/agentkit/charter/core"
)

// askedHub records the scope ping --server asked about.
type askedHub struct{ asked *core.Scope }

func (h askedHub) Ping(_ context.Context, _ *core.System, sc core.Scope) (ServerPing, error) {
	*h.asked = sc
	return ServerPing{URL: "http://127.0.0.1:41001/", PID: 7}, nil
}
func (h askedHub) Probe(*core.System, core.Scope) ServerState { return ServerState{} }

// PingServer asks the Hub about this session's scope, vetted as every
// other operation's; without a Hub it says so instead of answering.
func TestPingServer(t *testing.T) {
	sys, home, _ := machine(t)
	root := filepath.Join(home, "root")
	var asked core.Scope
	sp, err := New(sys, Options{RootFlag: &root, Hub: askedHub{&asked}}).PingServer(context.Background())
	if err != nil || sp.PID != 7 || asked.Root.Path != root {
		t.Errorf("ping %+v %v, asked about %+v", sp, err, asked)
	}
	bad := errors.New("no parent")
	s := New(sys, Options{RootFlag: &root, CheckRoot: func(core.ConfigRoot) error { return bad }, Hub: askedHub{&asked}})
	if _, err := s.PingServer(context.Background()); !errors.Is(err, bad) {
		t.Errorf("a root CheckRoot refuses: %v", err)
	}
	if _, err := New(sys, Options{}).PingServer(context.Background()); err == nil {
		t.Error("no hub: answered")
	}
}
