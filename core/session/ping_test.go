package session

import (
	"errors"
	"testing"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/apply"
)

// status says why it cannot tell the agent files' state by the error's
// code, whatever type carries it.
func TestApplyUnknownByCode(t *testing.T) {
	for _, c := range []struct {
		err  error
		want bool
	}{
		{core.Errorf(core.CodeNoAgent, "no agent"), true},
		{core.Errorf(core.CodeMalformedMarkers, "broken"), true},
		{&apply.MarkerError{Path: "/x/CLAUDE.md", Msg: "unbalanced"}, true},
		{errors.New("disk on fire"), false},
		{core.Errorf(core.CodeMalformedSettings, "bad"), false},
		{nil, false},
	} {
		if got := applyUnknown(c.err); got != c.want {
			t.Errorf("applyUnknown(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}
