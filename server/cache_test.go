package server

import (
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/dismiss"
	"github.com/agentkit/charter/core/profile"
	"github.com/agentkit/charter/core/settings"
)

// settle makes every file count as settled, so that the caches trust
// identity at once, as they do for files written more than settleTime ago.
func settle(r *running) {
	future := func() time.Time { return time.Now().Add(time.Hour) }
	r.settingsCache.now, r.detectCache.now = future, future
}

// bothModes runs a freshness test with the caches as the server sets them
// up (an inotify watch on Linux) and with the stat of every file that is
// the fallback everywhere.
func bothModes(t *testing.T, test func(*testing.T, func(*running))) {
	t.Run("as served", func(t *testing.T) {
		test(t, func(r *running) {
			if runtime.GOOS == "linux" && (r.settingsCache.watch == nil || r.detectCache.watch == nil) {
				t.Fatal("no inotify watch on linux")
			}
			settle(r)
		})
	})
	t.Run("stat", func(t *testing.T) {
		test(t, func(r *running) {
			r.settingsCache.watch, r.detectCache.watch = nil, nil
			settle(r)
		})
	})
}

func getValue(t *testing.T, r *running, key string) string {
	t.Helper()
	rp := r.do("GET", "api/v1/settings", "")
	if rp.status != 200 {
		t.Fatalf("GET: %d %s", rp.status, rp.body)
	}
	return string(valueAt(rp.body, key))
}

// A write by another process is visible to the very next GET: a plain
// file write in place (same inode), a second charter writing through the
// store, and a file removed.
func TestSettingsCacheFresh(t *testing.T) { bothModes(t, settingsCacheFresh) }

func settingsCacheFresh(t *testing.T, mode func(*running)) {
	e := newEnv(t)
	r := e.start(t, 0)
	mode(r)
	path := settings.New(e.sys, e.scope).Path()
	if got := getValue(t, r, "rules.tier"); got != `"balanced"` {
		t.Fatalf("default: %s", got)
	}
	if err := os.WriteFile(path, []byte("rules:\n  tier: full\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := getValue(t, r, "rules.tier"); got != `"full"` {
		t.Errorf("after a plain write: %s", got)
	}
	getValue(t, r, "rules.tier") // now served from the cache
	// Same size, same inode: only the mtime tells.
	if err := os.WriteFile(path, []byte("rules:\n  tier: full\ngates:\n  on_failure: stop\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	getValue(t, r, "gates.on_failure")
	if err := os.WriteFile(path, []byte("rules:\n  tier: full\ngates:\n  on_failure: warn\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := getValue(t, r, "gates.on_failure"); got != `"warn"` {
		t.Errorf("after a same-size write in place: %s", got)
	}
	other := settings.New(e.sys, e.scope)
	u, err := settings.Patch(map[string]string{"rules.tier": "minimal"}, nil, settings.ParseText)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.Write(u); err != nil {
		t.Fatal(err)
	}
	if got := getValue(t, r, "rules.tier"); got != `"minimal"` {
		t.Errorf("after a second charter's write: %s", got)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if got := getValue(t, r, "rules.tier"); got != `"balanced"` {
		t.Errorf("after removal: %s", got)
	}
}

// Concurrent readers and writers: after each successful PATCH, the very
// next GET by the same client shows its value; never a stale one.
func TestSettingsCacheNeverStaleAfterPatch(t *testing.T) {
	e := newEnv(t)
	r := e.start(t, 0)
	settle(r)
	var wg sync.WaitGroup
	for _, k := range settings.Keys()[:6] {
		wg.Go(func() {
			last := valueAt(r.do("GET", "api/v1/settings", "").body, k.Name)
			for round := 1; round <= 5; round++ {
				v := valueFor(k, round)
				rp, err := r.send("PATCH", "api/v1/settings", `{"set":{"`+k.Name+`":`+string(v)+`},"base":{"`+k.Name+`":`+string(last)+`}}`)
				if err != nil || rp.status != 200 {
					t.Errorf("PATCH %s: %v %d %s", k.Name, err, rp.status, rp.body)
					return
				}
				last = v
				get, err := r.send("GET", "api/v1/settings", "")
				if err != nil || string(valueAt(get.body, k.Name)) != string(v) {
					t.Errorf("GET after PATCH %s: %s, want %s", k.Name, valueAt(get.body, k.Name), v)
					return
				}
			}
		})
	}
	for range 4 {
		wg.Go(func() {
			for range 50 {
				if rp, err := r.send("GET", "api/v1/settings", ""); err != nil || rp.status != 200 {
					t.Errorf("GET: %v %d", err, rp.status)
					return
				}
			}
		})
	}
	wg.Wait()
}

// A companion binary dropped into a PATH directory is seen by the next
// request; removing it too.
func TestDetectCacheFresh(t *testing.T) { bothModes(t, detectCacheFresh) }

func detectCacheFresh(t *testing.T, mode func(*running)) {
	dir := t.TempDir()
	e := newEnv(t, "PATH="+dir)
	r := e.start(t, 0)
	mode(r)
	installed := func() bool {
		rp := r.do("GET", "api/v1/wizard/detect-agent-switch", "")
		if rp.status != 200 {
			t.Fatalf("%d %s", rp.status, rp.body)
		}
		return rp.json(t)["installed"].(bool)
	}
	if installed() || installed() {
		t.Fatal("installed before the binary exists")
	}
	bin := filepath.Join(dir, "agent-switch")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if installed() {
		t.Error("a file that is not executable counts as installed")
	}
	if err := os.Chmod(bin, 0o755); err != nil { // the directory does not change
		t.Fatal(err)
	}
	if !installed() {
		t.Error("chmod +x not seen by the next request")
	}
	if err := os.Remove(bin); err != nil {
		t.Fatal(err)
	}
	if installed() {
		t.Error("removal not seen by the next request")
	}
}

func detected(t *testing.T, r *running) map[string]any {
	t.Helper()
	rp := r.do("GET", "api/v1/wizard/detect-agent-switch", "")
	if rp.status != 200 {
		t.Fatalf("%d %s", rp.status, rp.body)
	}
	return rp.json(t)
}

// Creating the companion home (no binary on PATH) makes the companion
// installed for the very next request, and removing it uninstalls it.
func TestDetectCacheHome(t *testing.T) { bothModes(t, detectCacheHome) }

func detectCacheHome(t *testing.T, mode func(*running)) {
	e := newEnv(t, "PATH="+t.TempDir())
	r := e.start(t, 0)
	mode(r)
	home, err := profile.CompanionHome(e.sys)
	if err != nil {
		t.Fatal(err)
	}
	if d := detected(t, r); d["installed"] != false || d["installCommand"] == nil {
		t.Fatalf("before the home exists: %v", d)
	}
	detected(t, r) // now served from the cache
	if err := os.Mkdir(home, 0o755); err != nil {
		t.Fatal(err)
	}
	if d := detected(t, r); d["installed"] != true || d["installCommand"] != nil {
		t.Errorf("after the home was created: %v", d)
	}
	detected(t, r)
	if err := os.Remove(home); err != nil {
		t.Fatal(err)
	}
	if d := detected(t, r); d["installed"] != false {
		t.Errorf("after the home was removed: %v", d)
	}
}

// A dismissal written by another charter (a System of its own, as a CLI
// run would have) is seen by the very next request.
func TestDetectCacheDismissed(t *testing.T) { bothModes(t, detectCacheDismissed) }

func detectCacheDismissed(t *testing.T, mode func(*running)) {
	e := newEnv(t)
	r := e.start(t, 0)
	mode(r)
	if d := detected(t, r); d["dismissed"] != false {
		t.Fatalf("before the dismissal: %v", d)
	}
	detected(t, r) // now served from the cache
	other := coretest.New(t, coretest.Home(e.home)).Sys
	if _, err := dismiss.Dismiss(other, core.CompanionRecommendationID, false); err != nil {
		t.Fatal(err)
	}
	if d := detected(t, r); d["dismissed"] != true {
		t.Errorf("after another charter dismissed: %v", d)
	}
	detected(t, r)
	// A hand edit in place that takes the dismissal back, too.
	path, err := dismiss.Path(other)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(`{"dismissed":[]}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if d := detected(t, r); d["dismissed"] != false {
		t.Errorf("after the dismissal was taken back: %v", d)
	}
}
