//go:build unix

package gates

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

const benchReportBytes = 50 << 20

// writeReport fills path with about size bytes of one format.
func writeReport(b *testing.B, path string, size int, format string) int64 {
	b.Helper()
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	n := 0
	write := func(format string, args ...any) {
		k, _ := fmt.Fprintf(w, format, args...)
		n += k
	}
	switch format {
	case FormatGo:
		write("mode: set\n")
	case FormatCobertura:
		write("<?xml version=\"1.0\" ?>\n<coverage version=\"7\">\n<packages><package name=\"p\"><classes>\n")
	}
	for file := 0; n < size; file++ {
		switch format {
		case FormatLCOV:
			write("TN:\nSF:/src/pkg%d/file%d.js\nFN:1,f%d\nFNDA:3,f%d\nFNF:1\nFNH:1\n", file/100, file, file, file)
			for l := 1; l <= 200; l++ {
				write("DA:%d,%d\n", l, (l*file)%3)
			}
			write("LF:200\nLH:133\nBRF:0\nBRH:0\nend_of_record\n")
		case FormatGo:
			for l := 1; l <= 200; l++ {
				write("example.com/m/pkg%d/file%d.go:%d.2,%d.16 %d %d\n", file/100, file, l, l+1, l%4+1, (l*file)%3)
			}
		case FormatCobertura:
			write("<class name=\"c%d\" filename=\"src/file%d.py\"><methods/><lines>\n", file, file)
			for l := 1; l <= 200; l++ {
				write("<line number=\"%d\" hits=\"%d\"/>\n", l, (l*file)%3)
			}
			write("</lines></class>\n")
		}
	}
	if format == FormatCobertura {
		write("</classes></package></packages></coverage>\n")
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	f.Close()
	return int64(n)
}

// benchReport writes a report in a temporary directory; with b.Loop the
// benchmark function runs once, so it is written once.
func benchReport(b *testing.B, format string) (string, int64) {
	p := filepath.Join(b.TempDir(), "report."+format)
	return p, writeReport(b, p, benchReportBytes, format)
}

func parseFile(b *testing.B, path string) Stats {
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	st, err := ParseReport(f)
	if err != nil {
		b.Fatal(err)
	}
	return st
}

// peakHeap runs fn while sampling the live heap and returns the highest
// value seen above the heap before it started.
func peakHeap(fn func()) uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	var peak atomic.Uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			if m.HeapAlloc > base && m.HeapAlloc-base > peak.Load() {
				peak.Store(m.HeapAlloc - base)
			}
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	fn()
	close(stop)
	<-done
	return peak.Load()
}

// BenchmarkParseReport50MB parses a generated 50 MB report of each format
// from disk. MB/s comes from SetBytes; peak-heap-MB is the most live heap
// seen during one extra parse, which stays flat for a streaming parser.
func BenchmarkParseReport50MB(b *testing.B) {
	for _, format := range []string{FormatLCOV, FormatGo, FormatCobertura} {
		b.Run(format, func(b *testing.B) {
			path, size := benchReport(b, format)
			b.SetBytes(size)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				parseFile(b, path)
			}
			b.StopTimer()
			peak := peakHeap(func() { parseFile(b, path) })
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
			b.ReportMetric(float64(size)/(1<<20), "file-MB")
		})
	}
}

// BenchmarkGateOverhead runs `sh -c true` directly and through Run in
// turn, so that both see the same machine load, and reports each and the
// difference.
func BenchmarkGateOverhead(b *testing.B) {
	dir := b.TempDir()
	cfg := Config{Tests: Gate{Command: "true", Required: true}, Dir: dir}
	var direct, viaRun time.Duration
	for b.Loop() {
		t0 := time.Now()
		cmd := exec.Command("/bin/sh", "-c", "true")
		cmd.Dir = dir
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		if rep := Run(context.Background(), cfg, nil, nil); !rep.OK {
			b.Fatalf("%+v", rep)
		}
		direct += t1.Sub(t0)
		viaRun += time.Since(t1)
	}
	n := float64(b.N)
	b.ReportMetric(float64(direct.Microseconds())/1000/n, "sh-ms/op")
	b.ReportMetric(float64(viaRun.Microseconds())/1000/n, "run-ms/op")
	b.ReportMetric(float64((viaRun-direct).Microseconds())/1000/n, "added-ms/op")
}
