package commands

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentkit/charter/core/coretest"
)

// BenchmarkMCPRulesListStdio is rules_list at 1,000 rules over the real
// `charter mcp`'s stdin and stdout, all calls in one session, each call
// after a ping in the same session: the floor of a round trip that reads
// nothing (tools/list is no floor: it carries every tool's schema). Run with -benchtime=1000x; it reports the median (p50) and
// p99 of both, and their ratio.
func BenchmarkMCPRulesListStdio(b *testing.B) {
	bin := buildCharter(b)
	w := newWorld(b)
	for i := range 1000 {
		globs := ""
		if i%3 == 0 {
			globs = fmt.Sprintf("globs: [\"src/m%d/**/*.go\"]\n", i)
		}
		coretest.WriteFile(b, filepath.Join(w.root, "rules", fmt.Sprintf("rule-%04d.md", i)),
			fmt.Sprintf("---\ndescription: Rule %d of the library, one line.\n%s---\nDo thing %d the way the team agreed; say why in the commit.\n", i, globs, i))
	}
	p := startMCP(b, bin, w.project, w.env(), nil, "--config-root", w.root, "mcp")
	ctx := context.Background()
	params := &mcp.CallToolParams{Name: "rules_list", Arguments: map[string]any{}}
	list := func() {
		res, err := p.cs.CallTool(ctx, params)
		if err != nil || res.IsError {
			b.Fatal(err, res)
		}
	}
	list() // the first call reads the library
	var base, rules []time.Duration
	for b.Loop() {
		start := time.Now()
		if err := p.cs.Ping(ctx, nil); err != nil {
			b.Fatal(err)
		}
		base = append(base, time.Since(start))
		start = time.Now()
		list()
		rules = append(rules, time.Since(start))
	}
	slices.Sort(base)
	slices.Sort(rules)
	q := func(d []time.Duration, f float64) float64 {
		return float64(d[int(f*float64(len(d)-1))].Microseconds()) / 1000
	}
	b.ReportMetric(q(rules, 0.5), "rules-p50-ms")
	b.ReportMetric(q(rules, 0.99), "rules-p99-ms")
	b.ReportMetric(q(base, 0.5), "ping-p50-ms")
	b.ReportMetric(q(base, 0.99), "ping-p99-ms")
	b.ReportMetric(q(rules, 0.5)/q(base, 0.5), "p50-ratio")
	if code := p.close(b); code != 0 {
		b.Errorf("exit code %d", code)
	}
}
