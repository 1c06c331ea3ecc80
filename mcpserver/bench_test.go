package mcpserver

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// reportMedian adds the median of the timed calls to the benchmark's output,
// beside Go's mean ns/op. Run with -benchtime=1000x for 1,000 calls.
func reportMedian(b *testing.B, took []time.Duration) {
	if len(took) == 0 {
		return
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Nanoseconds()), "median-ns/call")
}

// The backend call that settings_get makes: read the files, look the key up.
func BenchmarkSettingsGetBackend(b *testing.B) {
	e := newEnv(b)
	e.write(b, e.settingsFile(), "rules:\n  tier: full\n")
	be, ctx := e.backend(), context.Background()
	took := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	for b.Loop() {
		start := time.Now()
		if _, err := be.Get(ctx, e.wd, "rules.tier"); err != nil {
			b.Fatal(err)
		}
		took = append(took, time.Since(start))
	}
	reportMedian(b, took)
}

// settings_get through the whole MCP stack, in-process: what stdio adds on
// top of this is the pipe and the other process.
func BenchmarkSettingsGetInMemory(b *testing.B) {
	e := newEnv(b)
	e.write(b, e.settingsFile(), "rules:\n  tier: full\n")
	cs := connect(b, e.server(), newClient(noRoots), "")
	params := &mcp.CallToolParams{Name: "settings_get", Arguments: KeyInput{Key: "rules.tier"}}
	took := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	for b.Loop() {
		start := time.Now()
		res, err := cs.CallTool(context.Background(), params)
		if err != nil || res.IsError {
			b.Fatal(err, res)
		}
		took = append(took, time.Since(start))
	}
	reportMedian(b, took)
}
