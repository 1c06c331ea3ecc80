package core

import "testing"

func TestSharedKind(t *testing.T) {
	for _, tc := range []struct{ target, link, want string }{
		{"/h/.agent-switch/claude/work/config/CLAUDE.md", "/h/.agent-switch/claude/work/config/CLAUDE.md", "file"},
		{"/h/.agent-switch/claude/work/config/CLAUDE.md", "/h/.agent-switch/claude/work/config", "dir"},
	} {
		e := &SharedWriteError{Target: tc.target, SharedPath: tc.link}
		if got := e.SharedKind(); got != tc.want || ErrorExtras(e)["sharedKind"] != tc.want {
			t.Errorf("link %s to %s: kind %q, extras %v; want %q", tc.link, tc.target, got, ErrorExtras(e)["sharedKind"], tc.want)
		}
	}
}
