package session

import (
	"context"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/apply"
	"github.com/agentkit/charter/core/doctor"
	"github.com/agentkit/charter/core/settings"
)

// DoctorOptions say how doctor looks at what lies outside the session.
type DoctorOptions struct {
	// Server probes a scope's server; nil: the session's Hub (tests pass
	// a probe that reports what they need).
	Server func(*core.System, core.Scope) doctor.ServerState
}

// Doctor runs every check on this session's scope, project and policy
// and returns the report. It only reads: a source the cache lacks is
// reported, not fetched. A cancelled ctx stops it with ctx's error.
// Without a probe or a Hub the report has no server line.
func (s *Session) Doctor(ctx context.Context, opts DoctorOptions) (doctor.Report, error) {
	probe := opts.Server
	if hub := s.opts.Hub; probe == nil && hub != nil {
		probe = func(sys *core.System, sc core.Scope) doctor.ServerState {
			return doctor.ServerState(hub.Probe(sys, sc))
		}
	}
	sess := s.WithoutFetch()
	return doctor.Run(ctx, doctor.Env{Sys: sess.Sys, Session: doctorView{sess}, Version: s.version(), Server: probe})
}

// doctorView is the session as doctor.Session declares it: the same
// resolution, with doctor's own plain types for peers and sources.
type doctorView struct{ *Session }

func (v doctorView) Plan(ctx context.Context, snap *settings.Snapshot, project bool) (*apply.Full, error) {
	return v.PlanWith(ctx, snap, ApplyRequest{Project: project})
}

func (v doctorView) PeerLeft(ctx context.Context, tool string) (doctor.PeerLeft, error) {
	left, err := v.Session.PeerLeft(ctx, tool)
	if err != nil || left == nil {
		return doctor.PeerLeft{}, err
	}
	out := doctor.PeerLeft{Kept: left.Kept}
	for _, c := range left.Changes {
		out.Changes = append(out.Changes, doctor.PeerFile{Path: c.Path, What: c.What})
	}
	return out, nil
}

func (v doctorView) Sources(ctx context.Context, sc *core.Scope) ([]doctor.Source, error) {
	es, err := v.SourcesListFor(ctx, sc)
	if err != nil {
		return nil, err
	}
	out := make([]doctor.Source, 0, len(es))
	for _, e := range es {
		out = append(out, doctor.Source{Name: e.Name, URL: e.URL, Layer: e.Layer, Settings: e.Settings, Lock: e.Lock,
			Commit: e.Commit, Cached: e.Cached, Latest: e.Latest, Update: e.Update})
	}
	return out, nil
}
