package commands

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkMCPSettingsGetStdio is the round trip of settings_get to the
// real `charter mcp` over its stdin and stdout, all calls in one session;
// with -benchtime=1000x, the median of 1,000 calls. On Linux it also
// reports the resident memory of the idle server, read from
// /proc/PID/status after the handshake and before the first call.
func BenchmarkMCPSettingsGetStdio(b *testing.B) {
	bin := buildCharter(b)
	w := newWorld(b)
	p := startMCP(b, bin, w.project, w.env(), nil, "--config-root", w.root, "mcp")
	var rss, hwm int
	if runtime.GOOS == "linux" {
		rss, hwm = procMemory(b, p.cmd.Process.Pid)
	}
	params := &mcp.CallToolParams{Name: "settings_get", Arguments: map[string]any{"key": "rules.tier"}}
	took := make([]time.Duration, 0, b.N)
	for b.Loop() {
		start := time.Now()
		res, err := p.cs.CallTool(context.Background(), params)
		if err != nil || res.IsError {
			b.Fatal(err, res)
		}
		took = append(took, time.Since(start))
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Nanoseconds()), "median-ns/call")
	if rss > 0 { // reported after the loop, which clears metrics when it starts
		b.ReportMetric(float64(rss), "idle-VmRSS-kB")
		b.ReportMetric(float64(hwm), "idle-VmHWM-kB")
	}
	if code := p.close(b); code != 0 {
		b.Errorf("exit code %d", code)
	}
}

// procMemory reads VmRSS and VmHWM (peak) of a process, in kB.
func procMemory(b *testing.B, pid int) (rss, hwm int) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, value, _ := strings.Cut(sc.Text(), ":")
		kb, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(value), " kB"))
		switch name {
		case "VmRSS":
			rss = kb
		case "VmHWM":
			hwm = kb
		}
	}
	if rss == 0 {
		b.Fatalf("no VmRSS in /proc/%d/status", pid)
	}
	return rss, hwm
}
