package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/agentkit/charter/core"
)

func TestShutdownBeacon(t *testing.T) {
	e := newEnv(t)
	r := e.start(t, 0)
	rp := r.do("POST", "api/v1/shutdown?token="+r.Token(), "", noAuth)
	if rp.status != 200 || rp.json(t)["ok"] != true {
		t.Fatalf("beacon: %d %s", rp.status, rp.body)
	}
	if err := r.wait(); err != nil {
		t.Fatal(err)
	}
	e.noStateFiles(t)
}

// A reload sends the beacon too; the reloaded page's first request keeps
// the server. Only a beacon nobody follows stops it.
func TestShutdownBeaconCancelledByReload(t *testing.T) {
	e := newEnv(t)
	s, err := Open(Config{Sys: e.sys, Scope: e.scope, Version: "t", BeaconGrace: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	r := serve(t, s)
	r.do("POST", "api/v1/shutdown?token="+r.Token(), "", noAuth)
	if rp := r.do("GET", "api/v1/ping", ""); rp.status != 200 {
		t.Fatalf("ping after beacon: %d", rp.status)
	}
	select {
	case err := <-r.done:
		t.Fatalf("stopped although the page came back: %v", err)
	case <-time.After(time.Second):
	}
	r.do("POST", "api/v1/shutdown?token="+r.Token(), "", noAuth)
	if err := r.wait(); err != nil {
		t.Fatal(err)
	}
}

func TestShutdownWithHeader(t *testing.T) {
	r := newEnv(t).start(t, 0)
	if rp := r.do("GET", "api/v1/shutdown", ""); rp.status != 405 {
		t.Fatalf("GET shutdown: %d", rp.status)
	}
	if rp := r.do("POST", "api/v1/shutdown", ""); rp.status != 200 {
		t.Fatalf("shutdown: %d %s", rp.status, rp.body)
	}
	if err := r.wait(); err != nil {
		t.Fatal(err)
	}
}

func TestSecondServerRefused(t *testing.T) {
	e := newEnv(t)
	r := e.start(t, 0)
	_, err := Open(Config{Sys: e.sys, Scope: e.scope, Version: "x"})
	var re *RunningError
	if !errors.As(err, &re) || re.Discovery.Port != r.Port() {
		t.Fatalf("second Open: %v", err)
	}
	if !strings.Contains(err.Error(), r.URL()) {
		t.Errorf("error does not say where it runs: %v", err)
	}
	// The refusal did not disturb the first server's files.
	if d, err := ReadDiscovery(e.sys, e.scope); err != nil || d.Port != r.Port() {
		t.Fatalf("discovery after refusal: %+v %v", d, err)
	}
}

func TestStaleDiscoveryReplaced(t *testing.T) {
	free := freePort(t)
	for name, d := range map[string]Discovery{
		"dead pid":    {PID: deadPID(t), Port: free},
		"silent port": {PID: os.Getpid(), Port: free},
	} {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t)
			b, _ := d.Marshal()
			if err := e.sys.WriteAtomic(DiscoveryPath(e.sys, e.scope), b); err != nil {
				t.Fatal(err)
			}
			r := e.start(t, 0)
			got, err := ReadDiscovery(e.sys, e.scope)
			if err != nil || got.Port != r.Port() || got.PID != os.Getpid() {
				t.Fatalf("discovery not replaced: %+v %v", got, err)
			}
		})
	}
}

// freePort returns a port nothing listens on.
func freePort(t *testing.T) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// deadPID returns the pid of a process that has exited.
func deadPID(t *testing.T) int {
	p, err := os.StartProcess(os.Args[0], []string{os.Args[0], "-test.run=^$"}, &os.ProcAttr{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Wait(); err != nil {
		t.Fatal(err)
	}
	return p.Pid
}

func TestStateFiles(t *testing.T) {
	e := newEnv(t)
	r := e.start(t, 0)
	d, err := ReadDiscovery(e.sys, e.scope)
	if err != nil {
		t.Fatal(err)
	}
	want := Discovery{PID: os.Getpid(), Port: r.Port(), URL: r.URL(), StartedAt: d.StartedAt, Version: "1.2.3-test", ConfigRoot: e.scope.Root.Path}
	if d != want || d.StartedAt.IsZero() {
		t.Errorf("discovery %+v, want %+v", d, want)
	}
	raw, _ := os.ReadFile(DiscoveryPath(e.sys, e.scope))
	if bytes.Contains(raw, []byte(r.Token())) {
		t.Error("the discovery file holds the token")
	}
	tok, _ := os.ReadFile(TokenPath(e.sys, e.scope))
	if got := strings.TrimSpace(string(tok)); len(got) != 64 || got != r.Token() {
		t.Errorf("token file %q", tok)
	}
	for _, p := range e.stateFiles() {
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v %v", p, fi.Mode(), err)
		}
	}
	if !strings.HasPrefix(r.HubURL(), r.URL()+"#token=") || strings.Contains(r.URL(), r.Token()) {
		t.Errorf("hub url %q, url %q", r.HubURL(), r.URL())
	}
	if err := r.stop(); err != nil {
		t.Fatal(err)
	}
	e.noStateFiles(t)
}

// Tokens are new per process.
func TestTokenFresh(t *testing.T) {
	a, b := newToken(), newToken()
	if a == b || len(a) != 64 || strings.Trim(a, "0123456789abcdef") != "" {
		t.Fatalf("tokens %q %q", a, b)
	}
}

// A server whose files were replaced by a newer one leaves them alone.
func TestRemoveOnlyOwnFiles(t *testing.T) {
	e := newEnv(t)
	r := e.start(t, 0)
	other := []byte(`{"pid":1,"port":1}` + "\n")
	if err := os.WriteFile(DiscoveryPath(e.sys, e.scope), other, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := r.stop(); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(DiscoveryPath(e.sys, e.scope)); !bytes.Equal(got, other) {
		t.Errorf("foreign discovery file removed or changed: %q", got)
	}
	if _, err := os.Stat(TokenPath(e.sys, e.scope)); !errors.Is(err, os.ErrNotExist) {
		t.Error("own token file left behind")
	}
}

// fakeTimer records what the watchdog asks of its timer; fire runs it.
type fakeTimer struct {
	d       time.Duration
	f       func()
	running bool
}

func (f *fakeTimer) Stop() bool { was := f.running; f.running = false; return was }
func (f *fakeTimer) Reset(d time.Duration) bool {
	was := f.running
	f.d, f.running = d, true
	return was
}

func TestIdleWatchdogClock(t *testing.T) {
	w := newWatchdog(2 * time.Second)
	var ft *fakeTimer
	w.after = func(d time.Duration, f func()) timer { ft = &fakeTimer{d: d, f: f, running: true}; return ft }
	if ft != nil {
		t.Fatal("the clock must wait for the first request (SPEC §6: armed by the first one)")
	}
	w.begin()
	w.begin()
	w.end()
	if ft != nil && ft.running {
		t.Fatal("a request still in flight must hold the clock")
	}
	w.end()
	if ft == nil || !ft.running || ft.d != 2*time.Second {
		t.Fatalf("the first request's end must arm the clock, got %+v", ft)
	}
	w.begin()
	if ft.running {
		t.Fatal("a request in flight must hold the armed clock")
	}
	w.end()
	if !ft.running || ft.d != 2*time.Second {
		t.Fatal("the clock must restart when the last request ends")
	}
	select {
	case <-w.expired():
		t.Fatal("fired before its timer did")
	default:
	}
	ft.f()
	<-w.expired() // closed now: would block forever otherwise
	if newWatchdog(0).expired() != nil {
		t.Fatal("a zero timeout must never fire")
	}
}

// Once a client has called, a server left alone stops by itself.
func TestIdleStopsAfterFirstRequest(t *testing.T) {
	r := newEnv(t).start(t, 100*time.Millisecond)
	if rp := r.do("GET", "api/v1/ping", ""); rp.status != 200 {
		t.Fatalf("ping: %d %s", rp.status, rp.body)
	}
	if err := r.wait(); err != nil {
		t.Fatal(err)
	}
}

func TestConnect(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	var ns *NoServerError
	if _, err := Connect(e.sys, e.scope); !errors.As(err, &ns) || ns.Reason != "" {
		t.Fatalf("no file: %v", err)
	}
	r := e.start(t, 0)
	c, err := Connect(e.sys, e.scope)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := c.Ping(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var doc core.PingDoc
	if err := json.Unmarshal(raw, &doc); err != nil || !doc.Capabilities["configRoot"] {
		t.Fatalf("ping: %s %v", raw, err)
	}
	if err := r.stop(); err != nil {
		t.Fatal(err)
	}
	// A file left by a killed server: the port no longer answers.
	b, _ := Discovery{PID: os.Getpid(), Port: freePort(t)}.Marshal()
	e.sys.WriteAtomic(DiscoveryPath(e.sys, e.scope), b)
	e.sys.WriteAtomic(TokenPath(e.sys, e.scope), []byte("x\n"))
	c, err = Connect(e.sys, e.scope)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Ping(ctx); !errors.As(err, &ns) || !strings.Contains(err.Error(), "stale") {
		t.Fatalf("silent port: %v", err)
	}
	b, _ = Discovery{PID: deadPID(t), Port: 41000}.Marshal()
	e.sys.WriteAtomic(DiscoveryPath(e.sys, e.scope), b)
	if _, err := Connect(e.sys, e.scope); !errors.As(err, &ns) || !strings.Contains(err.Error(), "is not running") {
		t.Fatalf("dead pid: %v", err)
	}
}

func TestListenPort(t *testing.T) {
	ln, err := listen(0)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	p := ln.Addr().(*net.TCPAddr).Port
	if p < PortMin || p > PortMax {
		t.Fatalf("port %d outside %d-%d", p, PortMin, PortMax)
	}
	if _, err := listen(p); err == nil {
		t.Fatal("a taken port was bound twice")
	}
}

// A stop lets requests in flight finish before the files go.
func TestGracefulDrain(t *testing.T) {
	e := newEnv(t)
	s, err := Open(Config{Sys: e.sys, Scope: e.scope, Version: "x"})
	if err != nil {
		t.Fatal(err)
	}
	entered, release := make(chan struct{}), make(chan struct{})
	s.routes["/api/v1/slow"] = []endpoint{{http.MethodGet, func(w http.ResponseWriter, r *http.Request) error {
		close(entered)
		<-release
		writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
		return nil
	}}}
	r := serve(t, s)
	got := make(chan reply, 1)
	go func() {
		rp, err := r.send("GET", "api/v1/slow", "")
		if err != nil {
			t.Error(err)
		}
		got <- rp
	}()
	<-entered
	r.cancel()
	// Wait until the listener is closed: the stop has begun.
	for {
		c, err := net.Dial("tcp", loopbackAddr(r.Port()))
		if err != nil {
			break
		}
		c.Close()
		time.Sleep(10 * time.Millisecond)
	}
	if _, err := os.Stat(DiscoveryPath(e.sys, e.scope)); err != nil {
		t.Error("discovery file removed while a request was in flight")
	}
	close(release)
	if rp := <-got; rp.status != 200 {
		t.Fatalf("in-flight request: %d %s", rp.status, rp.body)
	}
	if err := r.wait(); err != nil {
		t.Fatal(err)
	}
}
