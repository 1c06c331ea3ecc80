package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/settings"
)

// Load benchmarks, on real loopback connections. Bound them when running:
//
//	go test ./core/server/ -run '^$' -bench . -benchtime 20000x
//
// BenchmarkPing and BenchmarkBarePing use 32 concurrent clients; their
// ratio is the cost of charter's gates, routing and encoding.
// BenchmarkPatchSettings runs one writer per schema key, b.N/keys rounds.

const clients = 32

func BenchmarkPing(b *testing.B) {
	r := newEnv(b).start(b, 0)
	benchGet(b, r.URL()+"api/v1/ping", r.Token())
}

// BenchmarkBarePing is a plain net/http handler writing the same bytes.
func BenchmarkBarePing(b *testing.B) {
	e := newEnv(b)
	doc, _ := json.Marshal(core.Ping(e.scope, "1.2.3-test"))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(doc)
	})}
	go srv.Serve(ln)
	defer srv.Close()
	benchGet(b, "http://"+ln.Addr().String()+"/api/v1/ping", "")
}

func benchGet(b *testing.B, url, token string) {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients}}
	procs := runtime.GOMAXPROCS(0)
	b.SetParallelism((clients + procs - 1) / procs)
	var (
		mu  sync.Mutex
		lat []time.Duration
	)
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		var mine []time.Duration
		for pb.Next() {
			req, _ := http.NewRequest(http.MethodGet, url, nil)
			if token != "" {
				req.Header.Set("Authorization", "Bearer "+token)
			}
			t0 := time.Now()
			resp, err := client.Do(req)
			if err != nil {
				b.Error(err)
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			mine = append(mine, time.Since(t0))
			if resp.StatusCode != http.StatusOK {
				b.Errorf("status %d", resp.StatusCode)
				return
			}
		}
		mu.Lock()
		lat = append(lat, mine...)
		mu.Unlock()
	})
	report(b, len(lat), time.Since(start), lat)
}

// report adds requests per second and the 99th percentile latency.
func report(b *testing.B, n int, elapsed time.Duration, lat []time.Duration) {
	if len(lat) == 0 {
		return
	}
	slices.Sort(lat)
	b.ReportMetric(float64(n)/elapsed.Seconds(), "req/s")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
}

func BenchmarkPatchSettings(b *testing.B) {
	e := newEnv(b)
	r := e.start(b, 0)
	rounds := max(1, b.N/len(settings.Keys()))
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	res := r.patchRounds(b, rounds)
	elapsed := time.Since(start)
	b.StopTimer()
	if res.errors > 0 {
		b.Fatalf("%d errors", res.errors)
	}
	r.checkFinal(b, e, rounds)
	report(b, len(res.latencies), elapsed, res.latencies)
	b.ReportMetric(float64(res.retries), "retries")
}

type patchResult struct {
	errors, retries int
	latencies       []time.Duration // of each successful PATCH, retries included
}

// patchRounds runs one writer per schema key; each sets its key to the
// value of round 1..rounds, reading the ETag first and reading again after
// a 412.
func (r *running) patchRounds(tb testing.TB, rounds int) patchResult {
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		res     patchResult
		errs    atomic.Int64
		retries atomic.Int64
	)
	for _, k := range settings.Keys() {
		wg.Go(func() {
			var lat []time.Duration
			for round := 1; round <= rounds; round++ {
				body := fmt.Sprintf(`{"set":{%q:%s}}`, k.Name, valueFor(k, round))
				t0 := time.Now()
				for {
					get, err := r.send(http.MethodGet, "api/v1/settings", "")
					if err != nil || get.status != http.StatusOK {
						tb.Errorf("GET: %v %d", err, get.status)
						errs.Add(1)
						return
					}
					rp, err := r.send(http.MethodPatch, "api/v1/settings", body, header("If-Match", get.header.Get("ETag")))
					if err == nil && rp.status == http.StatusPreconditionFailed {
						retries.Add(1)
						continue
					}
					if err != nil || rp.status != http.StatusOK {
						tb.Errorf("PATCH %s: %v %d %s", k.Name, err, rp.status, rp.body)
						errs.Add(1)
						return
					}
					break
				}
				lat = append(lat, time.Since(t0))
			}
			mu.Lock()
			res.latencies = append(res.latencies, lat...)
			mu.Unlock()
		})
	}
	wg.Wait()
	res.errors, res.retries = int(errs.Load()), int(retries.Load())
	return res
}

// checkFinal verifies that the file holds every key's last value: no write
// was lost.
func (r *running) checkFinal(tb testing.TB, e *env, rounds int) {
	tb.Helper()
	snap, err := settings.New(e.sys, e.scope).Read()
	if err != nil {
		tb.Fatal(err)
	}
	for _, k := range settings.Keys() {
		got, _ := json.Marshal(snap.Values[k.Name])
		if want := valueFor(k, rounds); !bytes.Equal(got, want) || snap.Origins[k.Name] == settings.OriginDefault {
			tb.Errorf("%s = %s (%s), want %s: a write was lost", k.Name, got, snap.Origins[k.Name], want)
		}
	}
}

// valueFor gives key k a valid value that differs from the previous round's.
func valueFor(k settings.Key, round int) json.RawMessage {
	var v any
	switch k.Kind {
	case settings.Bool:
		v = round%2 == 1
	case settings.Int:
		v = round
		if k.Min != nil && k.Min.IntPart() > 0 {
			v = int(k.Min.IntPart()) + round
		}
		if k.Max != nil {
			v = round % int(k.Max.IntPart()+1)
		}
	case settings.Decimal:
		return json.RawMessage(fmt.Sprintf("0.%d", round%9+1))
	case settings.Enum:
		v = k.Choices[round%len(k.Choices)]
	case settings.List:
		v = []string{fmt.Sprintf("item-%d", round)}
	case settings.String:
		v = fmt.Sprintf("make check-%d", round)
	case settings.Duration:
		v = fmt.Sprintf("%ds", round%59+1) // under a minute: already canonical
	}
	b, _ := json.Marshal(v)
	return b
}
