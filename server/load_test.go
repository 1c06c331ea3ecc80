package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/settings"
)

// Load benchmarks, on real loopback connections. Bound them when running:
//
//	go test ./server/ -run '^$' -bench . -benchtime 20000x
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

// BenchmarkPatchSettings: one writer per schema key under If-Match, where
// writers of different keys conflict and retry.
func BenchmarkPatchSettings(b *testing.B) { benchPatch(b, false) }

// BenchmarkPatchSettingsBase: the same writers with the per-key base, where
// they never conflict.
func BenchmarkPatchSettingsBase(b *testing.B) { benchPatch(b, true) }

func benchPatch(b *testing.B, base bool) {
	e := newEnv(b)
	r := e.start(b, 0)
	rounds := max(1, b.N/len(settings.Keys()))
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	res := r.patchRounds(b, rounds, base)
	elapsed := time.Since(start)
	b.StopTimer()
	if res.errors > 0 {
		b.Fatalf("%d errors", res.errors)
	}
	r.checkFinal(b, e, rounds)
	report(b, len(res.latencies), elapsed, res.latencies)
	b.ReportMetric(float64(len(res.latencies))/elapsed.Seconds(), "writes/s")
	b.ReportMetric(float64(res.retries), "412s")
}

// BenchmarkBareFsync is the floor for a write: temp file, fsync, rename,
// from the same number of writers, one after the other as under one lock.
func BenchmarkBareFsync(b *testing.B) {
	dir := b.TempDir()
	path := filepath.Join(dir, "settings.yaml")
	var mu sync.Mutex
	var wg sync.WaitGroup
	var n atomic.Int64
	data := bytes.Repeat([]byte("key: value\n"), 40)
	b.ResetTimer()
	start := time.Now()
	for range len(settings.Keys()) {
		wg.Go(func() {
			for n.Add(1) <= int64(b.N) {
				mu.Lock()
				err := writeSynced(path, data)
				mu.Unlock()
				if err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "writes/s")
}

func writeSynced(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

type patchResult struct {
	errors, retries int
	latencies       []time.Duration // of each successful PATCH, retries included
}

// patchRounds runs one writer per schema key; each sets its key to the
// value of round 1..rounds. With base it sends the value it last read or
// wrote as the per-key precondition; without, the ETag of a fresh GET as
// If-Match. Either way a 412 is counted and retried after a re-read.
func (r *running) patchRounds(tb testing.TB, rounds int, base bool) patchResult {
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
			var last json.RawMessage // base mode: the value of k last read or written
			read := func() (reply, bool) {
				get, err := r.send(http.MethodGet, "api/v1/settings", "")
				if err != nil || get.status != http.StatusOK {
					tb.Errorf("GET: %v %d", err, get.status)
					errs.Add(1)
					return get, false
				}
				last = valueAt(get.body, k.Name)
				return get, true
			}
			if base {
				if _, ok := read(); !ok {
					return
				}
			}
			for round := 1; round <= rounds; round++ {
				v := valueFor(k, round)
				t0 := time.Now()
				for {
					var rp reply
					var err error
					if base {
						body := fmt.Sprintf(`{"set":{%q:%s},"base":{%q:%s}}`, k.Name, v, k.Name, last)
						rp, err = r.send(http.MethodPatch, "api/v1/settings", body)
					} else {
						get, ok := read()
						if !ok {
							return
						}
						body := fmt.Sprintf(`{"set":{%q:%s}}`, k.Name, v)
						rp, err = r.send(http.MethodPatch, "api/v1/settings", body, header("If-Match", get.header.Get("ETag")))
					}
					if err == nil && rp.status == http.StatusPreconditionFailed {
						retries.Add(1)
						if base {
							if _, ok := read(); !ok {
								return
							}
						}
						continue
					}
					if err != nil || rp.status != http.StatusOK {
						tb.Errorf("PATCH %s: %v %d %s", k.Name, err, rp.status, rp.body)
						errs.Add(1)
						return
					}
					last = v
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

// valueAt is the value of a dotted key in a settings document.
func valueAt(doc []byte, key string) json.RawMessage {
	var d struct{ Values map[string]json.RawMessage }
	if json.Unmarshal(doc, &d) != nil {
		return nil
	}
	parts := strings.Split(key, ".")
	cur := d.Values
	for _, p := range parts[:len(parts)-1] {
		var next map[string]json.RawMessage
		if json.Unmarshal(cur[p], &next) != nil {
			return nil
		}
		cur = next
	}
	return cur[parts[len(parts)-1]]
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
		if lo, _ := strconv.Atoi(string(k.Min)); lo > 0 {
			v = lo + round
		}
		if hi, err := strconv.Atoi(string(k.Max)); err == nil {
			v = round % (hi + 1)
		}
	case settings.Decimal:
		return json.RawMessage(fmt.Sprintf("0.%d", round%9+1))
	case settings.Enum:
		v = k.Choices[round%len(k.Choices)]
	case settings.List:
		v = []string{fmt.Sprintf("item-%d", round)}
		if k.ItemCheck != nil && k.ItemCheck("mcp:x") == "" { // a permission rule
			v = []string{fmt.Sprintf("mcp:item-%d", round)}
		}
	case settings.String:
		v = fmt.Sprintf("make check-%d", round)
	case settings.Duration:
		v = fmt.Sprintf("%ds", round%59+1) // under a minute: already canonical
	}
	b, _ := json.Marshal(v)
	return b
}

// BenchmarkGetSettings serves the settings document from the read cache;
// compare with BenchmarkBarePing (a bare handler) for the ratio.
func BenchmarkGetSettings(b *testing.B) {
	r := newEnv(b).start(b, 0)
	settle(r)
	benchGet(b, r.URL()+"api/v1/settings", r.Token())
}

// BenchmarkDetect answers detect-agent-switch from its cache, with a PATH
// of several directories.
func BenchmarkDetect(b *testing.B) {
	var dirs []string
	for range 12 {
		dirs = append(dirs, b.TempDir())
	}
	r := newEnv(b, "PATH="+strings.Join(dirs, string(os.PathListSeparator))).start(b, 0)
	settle(r)
	benchGet(b, r.URL()+"api/v1/wizard/detect-agent-switch", r.Token())
}

// BenchmarkSettingsCacheHit is one cache lookup that finds the files
// unchanged: the per-request work of GET /api/v1/settings besides HTTP.
func BenchmarkSettingsCacheHit(b *testing.B) {
	e := newEnv(b)
	s, err := Open(Config{Sys: e.sys, Scope: e.scope, Version: "test"})
	if err != nil {
		b.Fatal(err)
	}
	defer s.removeFiles()
	s.settingsCache.now = func() time.Time { return time.Now().Add(time.Hour) }
	st := settings.New(e.sys, e.scope)
	build := func() (encoded, []string, error) {
		files := st.Files()
		snap, err := st.Read()
		if err != nil {
			return encoded{}, nil, err
		}
		doc, err := encodeJSON(st.Doc(snap))
		return encoded{snap.ETag, doc}, files, err
	}
	for range 2 {
		s.settingsCache.get(e.sys.Fs, "", build)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.settingsCache.get(e.sys.Fs, "", build); err != nil {
			b.Fatal(err)
		}
	}
}
