package server

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/profile"
)

// watchFs notes, when the discovery file is removed, which of the other
// state files still exist at that moment.
type watchFs struct {
	afero.Fs
	discovery string
	others    []string

	mu   sync.Mutex
	left []string // files still there when the discovery file went
	seen bool     // the discovery file was removed
}

func (w *watchFs) Remove(name string) error {
	if name == w.discovery {
		w.mu.Lock()
		w.seen = true
		for _, p := range w.others {
			if _, err := w.Fs.Stat(p); err == nil {
				w.left = append(w.left, p)
			}
		}
		w.mu.Unlock()
	}
	return w.Fs.Remove(name)
}

// The discovery file's removal is the signal that the server is gone
// (Client.Stop returns on it): the token and the open page must be gone by
// then, or a script that looks right after `serve --stop` still sees them.
func TestStopRemovesDiscoveryLast(t *testing.T) {
	w := &watchFs{Fs: afero.NewOsFs()}
	m := coretest.New(t, coretest.Fs(w))
	sys := m.Sys
	root := filepath.Join(m.Dir, "root")
	sc, err := profile.ResolveScope(sys, &root)
	if err != nil {
		t.Fatal(err)
	}
	w.discovery = DiscoveryPath(sys, sc)
	w.others = []string{TokenPath(sys, sc), OpenFilePath(sys, sc)}

	for i := range 3 {
		w.mu.Lock()
		w.left, w.seen = nil, false
		w.mu.Unlock()
		s, err := Open(Config{Sys: sys, Scope: sc, Version: "1.2.3-test"})
		if err != nil {
			t.Fatal(err)
		}
		r := serve(t, s)
		c, err := Connect(sys, sc)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := WriteOpenPage(sys, sc, c.HubURL()); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		err = c.Stop(ctx)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		// Right after Stop returns, as `charter serve --stop` does.
		for _, p := range append([]string{w.discovery}, w.others...) {
			if _, err := os.Stat(p); !os.IsNotExist(err) {
				t.Errorf("round %d: %s still there when Stop returned (%v)", i, p, err)
			}
		}
		if err := r.wait(); err != nil {
			t.Fatal(err)
		}
		w.mu.Lock()
		if !w.seen {
			t.Errorf("round %d: the discovery file was not removed by the server", i)
		}
		if len(w.left) > 0 {
			t.Errorf("round %d: the discovery file went before %v", i, w.left)
		}
		w.mu.Unlock()
	}
}
