package doctor_test

import (
	"context"
	"testing"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/doctor"
	"github.com/agentkit/charter/core/session"
)

// env is what a test varies: the session (nil: one of Sys with no
// flags, at Version), and the server probe (nil: none, so no server line).
type env struct {
	Sys     *core.System
	Session *session.Session
	Version string
	Server  func(*core.System, core.Scope) doctor.ServerState
}

func (e env) run(ctx context.Context) (doctor.Report, error) {
	s := e.Session
	if s == nil {
		s = session.New(e.Sys, session.Options{Version: func() string { return e.Version }})
	}
	return s.Doctor(ctx, session.DoctorOptions{Server: e.Server})
}

// runAll is a doctor run with a context never cancelled: always a report.
func runAll(e env) doctor.Report {
	rep, err := e.run(context.Background())
	if err != nil {
		panic(err) // doctor fails only when its context is cancelled
	}
	return rep
}

// A cancelled context stops doctor before its checks, with no report.
func TestRunStopsWhenCancelled(t *testing.T) {
	sys := coretest.New(t).Sys
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if rep, err := (env{Sys: sys}).run(ctx); err == nil || len(rep.Checks) != 0 {
		t.Fatalf("doctor with a cancelled context: %d checks, %v", len(rep.Checks), err)
	}
}
