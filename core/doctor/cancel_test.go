package doctor

import (
	"context"
	"testing"

	"github.com/agentkit/charter/core/coretest"
)

// runAll is Run with a context never cancelled: always a report.
func runAll(env Env) Report {
	rep, err := Run(context.Background(), env)
	if err != nil {
		panic(err) // Run fails only when its context is cancelled
	}
	return rep
}

// A cancelled context stops doctor before its checks, with no report.
func TestRunStopsWhenCancelled(t *testing.T) {
	sys := coretest.New(t).Sys
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if rep, err := Run(ctx, Env{Sys: sys}); err == nil || len(rep.Checks) != 0 {
		t.Fatalf("doctor with a cancelled context: %d checks, %v", len(rep.Checks), err)
	}
}
