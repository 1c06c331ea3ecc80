package loaded

import (
	"context"
	"time"

	"github.com/agentkit/charter/core"
)

// States of an item in a Status.
const (
	StateLoaded    = "loaded"     // reported in the last session
	StateNotLoaded = "not_loaded" // reported in an earlier kept session, not in the last
	StateNever     = "never"      // no kept session reported it
)

// Status is what the kept records say about one item.
type Status struct {
	State string `json:"state"`
	// Agent is the agent that reported it (claude); "" when never.
	Agent string `json:"agent,omitempty"`
	// At is the latest report of the item, in the last session for
	// loaded, in an earlier one for not_loaded.
	At     *time.Time `json:"at,omitempty"`
	Reason string     `json:"reason,omitempty"` // Claude's load_reason
}

// View is the kept records as seen from one place: the last session is
// the newest one that ran in the project (any, outside a project).
type View struct {
	last     *Session
	sessions []Session
}

// Read reads the records under stateDir (<scope>/state); projectRoot is
// the project of the current directory, "" for none. Unreadable records
// are skipped: no record means never loaded. A cancelled ctx stops it
// between two records with ctx's error.
func Read(ctx context.Context, sys *core.System, stateDir, projectRoot string) (*View, error) {
	all, err := sessions(ctx, sys, Dir(sys, stateDir))
	if err != nil {
		return nil, err
	}
	v := &View{sessions: all}
	for i, s := range v.sessions {
		if projectRoot == "" || in(sys, projectRoot, s.Cwd) {
			v.last = &v.sessions[i]
			break
		}
	}
	return v, nil
}

func in(sys *core.System, root, cwd string) bool {
	if cwd == "" || !sys.Paths.IsAbs(cwd) {
		return false
	}
	cwd = sys.Paths.Clean(cwd)
	if cwd == root {
		return true
	}
	_, ok := sys.Paths.Within(root, cwd)
	return ok
}

// Last is the last session's id and time; "" when there is none.
func (v *View) Last() (session string, at time.Time) {
	if v.last == nil {
		return "", time.Time{}
	}
	return v.last.Session, v.last.Updated
}

// Of is the item's status: kind as in the projection record (rule,
// skill, command, subagent) and its name, at either level.
func (v *View) Of(kind, item string) Status {
	if v.last != nil {
		if f := find(*v.last, kind, item); f != nil {
			return Status{State: StateLoaded, Agent: v.last.Agent, At: &f.At, Reason: f.Reason}
		}
	}
	for _, s := range v.sessions {
		if f := find(s, kind, item); f != nil {
			return Status{State: StateNotLoaded, Agent: s.Agent, At: &f.At, Reason: f.Reason}
		}
	}
	return Status{State: StateNever}
}

// find is the session's latest report of the item.
func find(s Session, kind, item string) *File {
	var out *File
	for i, f := range s.Files {
		if f.Kind == kind && f.Item == item && (out == nil || f.At.After(out.At)) {
			out = &s.Files[i]
		}
	}
	return out
}
