package session

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	fastjson "github.com/segmentio/encoding/json"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/apply"
	"github.com/agentkit/charter/core/content"
	"github.com/agentkit/charter/core/fsys"
	"github.com/agentkit/charter/core/planmemo"
	"github.com/agentkit/charter/core/profile"
	"github.com/agentkit/charter/core/settings"
	"github.com/agentkit/charter/core/sources"
	"github.com/agentkit/charter/core/trust"
)

// ApplyMemo is the memo of one plain `apply --project` (planmemo): the
// report a run gives again while nothing it rested on changed.
type ApplyMemo struct {
	s      *Session
	path   string
	key    func() string // made in a goroutine, while the plan reads
	start  time.Time
	layers []content.Layer
	snap   *settings.Snapshot
	// sources is the watch of what the plan read, taken while the run
	// writes (WatchSources): set before watchedAll is closed.
	sources    *planmemo.Watch
	watchedAll chan struct{}
}

// ApplyMemo is req's memo, keyed on everything its plan is asked before
// it reads anything; nil when such a run is planned each time: not the
// project's files, --force, import's requests, shared sources (their
// trust and pins), or no memo on this system.
func (s *Session) ApplyMemo(ctx context.Context, req ApplyRequest) *ApplyMemo {
	if !req.Project || !req.RunOnly || req.Force || len(req.Also) > 0 || req.Adopt != nil || req.Hold != nil || !planmemo.Enabled(s.Sys) {
		return nil
	}
	start := time.Now()
	p, err := s.Project()
	if err != nil || p == nil {
		return nil
	}
	snap, err := s.ApplySettings(ctx, true)
	if err != nil {
		return nil
	}
	policy, err := settings.PolicyPath(s.Sys)
	if err != nil {
		return nil
	}
	plain := content.Sources(s.Sys, snap.Scope, p, policy)
	layers, err := s.withSources(ctx, snap.Scope, plain, content.LevelProject, true)
	if err != nil || !slices.Equal(layers, plain) {
		return nil
	}
	exe, err := os.Executable()
	if err != nil {
		return nil
	}
	exeStamp, err := os.Stat(exe)
	if err != nil {
		return nil
	}
	cwd, _ := s.Sys.Getwd()
	uid, _ := s.Sys.RunsAs()
	parts := []string{"apply --project", exe, exeStamp.ModTime().String(), exeStamp.Mode().String(), cwd, p.Dir,
		strings.Join(req.Agents, "\x00"), snap.ETag, snap.Scope.Kind, snap.Scope.Path}
	for _, v := range core.Environment(s.Sys.AgentTable.All()) {
		parts = append(parts, v.Name+"="+s.Sys.Getenv(v.Name))
	}
	keyed := []any{layers, snap.Values, snap.Gov, uid}
	if s.Sys.AgentTable != nil {
		// The built-in table is the binary's, whose path and stamp are
		// in the key already: encoding it is a tenth of a replay.
		keyed = append(keyed, s.Sys.AgentTable)
	}
	// Encoding what the key holds is most of this; it overlaps the look
	// for a memo, and when there is none (a cold run), the plan. Nothing
	// it encodes is changed after: the plan only reads the snapshot.
	key := make(chan string, 1)
	go func() {
		for _, x := range keyed {
			data, err := json.Marshal(x)
			if err != nil {
				key <- "" // no memo is found or kept under no key
				return
			}
			parts = append(parts, string(data))
		}
		key <- planmemo.Key(parts...)
	}()
	path := planmemo.Path(s.Sys, "project\x00"+p.Dir)
	return &ApplyMemo{s: s, path: path, key: sync.OnceValue(func() string { return <-key }), start: start, layers: layers, snap: snap}
}

// Snapshot is the project's settings the memo is keyed on: the plan's,
// so that a memo kept describes the settings its plan read (nil: none).
func (m *ApplyMemo) Snapshot() *settings.Snapshot {
	if m == nil {
		return nil
	}
	return m.snap
}

// Replay is the report the last run gave, when every file it rested on
// still has its stamp.
func (m *ApplyMemo) Replay() (apply.FullReport, bool) {
	var rep apply.FullReport
	if m == nil {
		return rep, false
	}
	data, ok := planmemo.Load(m.s.Sys, m.path, m.key)
	if !ok {
		return rep, false
	}
	// segmentio's decoder (linked already, by the MCP SDK) reads the
	// report encoding/json wrote in a third of the time: most of a
	// replay's own work at 100 rules. Its strings point into data, which
	// nothing changes after: a run's fresh heap pages cost more than the
	// decoding.
	rest, err := fastjson.Parse(data, &rep, fastjson.ZeroCopy)
	if err != nil || len(bytes.TrimSpace(rest)) > 0 {
		return rep, false
	}
	return rep, true
}

// WatchSources starts stamping what the plan read (the layers' content
// trees and files, the settings, policy, companion and trust files) in a
// goroutine, so that it overlaps the run's writes, which touch none of
// them. Stamps taken any time after the run's start are judged alike by
// planmemo.Save: a path changed since then is racy (no memo), one
// changed later no longer matches (the next run plans).
func (m *ApplyMemo) WatchSources() {
	if m == nil || m.watchedAll != nil {
		return
	}
	sys := m.s.Sys
	policy, perr := settings.PolicyPath(sys)
	home, herr := profile.CompanionHome(sys)
	tpath, terr := trust.Path(sys)
	m.watchedAll = make(chan struct{})
	go func() {
		defer close(m.watchedAll)
		w := new(planmemo.Watch)
		m.sources = w
		for _, ly := range m.layers {
			for _, k := range content.Kinds() {
				w.Tree(sys.Paths.Join(ly.Dir, k.Dir()))
			}
			w.Path(sys.Paths.Join(ly.Dir, sources.LockName))
			if ly.Within == "" && ly.Name != settings.LayerPolicy {
				// The user's folders: whatever else is kept there. Not the
				// project's .charter/, whose record a run rewrites (watched
				// by its bytes), nor the folder the policy file lies in.
				w.Entries(ly.Dir)
			}
		}
		for _, l := range m.snap.Layers {
			if l.Path != nil {
				w.Path(*l.Path)
			}
		}
		if perr == nil {
			w.Path(policy)
		}
		if herr == nil {
			w.Below(home, 2) // profiles and shared links
		}
		if terr == nil {
			w.Path(tpath)
		}
	}()
}

// watched waits for WatchSources' watch (started now when it was not).
func (m *ApplyMemo) watched() *planmemo.Watch {
	m.WatchSources()
	<-m.watchedAll
	return m.sources
}

// Settle waits for WatchSources: a run that fails after starting it
// leaves no walk behind it.
func (m *ApplyMemo) Settle() {
	if m != nil && m.watchedAll != nil {
		<-m.watchedAll
	}
}

// Remember keeps rep, the report of full's run, for the next run while
// nothing changes; else forgets the memo.
func (m *ApplyMemo) Remember(full *apply.Full, rep apply.FullReport) {
	if m == nil {
		return
	}
	w := m.watched()
	next, ok := full.Memo(m.s.Sys, rep, w)
	// segmentio's encoder, as Replay's decoder: encoding/json's reflection
	// took about 20 ms of a cold run's end at 3,000 rules (1.4 MB).
	data, err := fastjson.Marshal(next)
	if !ok || err != nil {
		planmemo.Forget(m.s.Sys, m.path)
		return
	}
	sys := m.s.Sys
	// Where a project and a repository are looked for, from the root up.
	// A temporary file a killed run left in .charter/ goes at the next
	// run: a folder that holds one, or gets one, is planned again.
	w.Names(sys.Paths.Join(full.Root(), core.ProjectDirName), func(name string) bool {
		return strings.HasPrefix(name, fsys.TempPrefix)
	})
	// Git rewrites files in .git/ at every commit: only what .git is
	// (folder, file or nothing) is watched.
	for d := full.Root(); ; d = sys.Paths.Dir(d) {
		w.Kind(sys.Paths.Join(d, ".git"))
		w.Kind(sys.Paths.Join(d, core.ProjectDirName))
		if sys.Paths.Dir(d) == d {
			break
		}
	}
	key := m.key()
	if key == "" || !planmemo.Save(sys, m.path, key, w, m.start, data) {
		planmemo.Forget(sys, m.path)
	}
}
