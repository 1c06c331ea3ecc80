package loaded

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/fsys"
	"github.com/agentkit/charter/core/projection"
)

// fixture is a scope's state directory with a user-level record naming
// one rule, and a project whose lock names two.
type fixture struct {
	sys              *core.System
	state, proj      string
	userRule, always string
	scoped           string
}

func newFixture(t *testing.T) fixture {
	t.Helper()
	m := coretest.New(t)
	f := fixture{sys: m.Sys, state: filepath.Join(m.Dir, "scope", "state"), proj: filepath.Join(m.Dir, "repo")}
	f.userRule = filepath.Join(m.Home, ".claude", "rules", "mine.md")
	f.always = filepath.Join(f.proj, ".claude", "rules", "always.md")
	f.scoped = filepath.Join(f.proj, ".claude", "rules", "go-style.md")
	sum := strings.Repeat("a", 64)
	user := projection.Record{Version: 1, Files: []projection.Recorded{{Path: f.userRule, SHA256: sum, Kind: "rule", Item: "mine", Agent: "claude"}}}
	lock := projection.Record{Version: 1, Files: []projection.Recorded{
		{Path: ".claude/rules/always.md", SHA256: sum, Kind: "rule", Item: "always", Agent: "claude"},
		{Path: ".claude/rules/go-style.md", SHA256: sum, Kind: "rule", Item: "go-style", Agent: "claude"},
	}}
	coretest.WriteFile(t, filepath.Join(f.state, "projection.json"), string(user.Encode()))
	coretest.WriteFile(t, filepath.Join(f.proj, ".charter", "projection.lock"), string(lock.Encode()))
	return f
}

// event is the InstructionsLoaded input as Claude Code's hooks reference
// shows it.
func event(session, cwd, path, reason string) string {
	return fmt.Sprintf(`{"session_id":%q,"transcript_path":"/t.jsonl","cwd":%q,"permission_mode":"default",`+
		`"hook_event_name":"InstructionsLoaded","file_path":%q,"memory_type":"Project","load_reason":%q}`, session, cwd, path, reason)
}

func (f fixture) record(t *testing.T, payload string) {
	t.Helper()
	in, err := ReadInput(strings.NewReader(payload))
	if err != nil {
		t.Fatal(err)
	}
	if err := Record(context.Background(), f.sys, f.state, "claude", in); err != nil {
		t.Fatal(err)
	}
}

func TestRealisticEventsMarkTheRightItems(t *testing.T) {
	f := newFixture(t)
	f.record(t, event("s1", f.proj, f.always, "session_start"))
	f.record(t, event("s1", f.proj, f.userRule, "session_start"))
	f.record(t, event("s1", f.proj, filepath.Join(f.proj, "CLAUDE.md"), "session_start"))     // not projected
	f.record(t, event("s1", f.proj, filepath.Join(f.proj, "..", "x", "rules.md"), "include")) // outside any record
	v := mustRead(t, f.sys, f.state, f.proj)
	for item, want := range map[string]string{"always": StateLoaded, "mine": StateLoaded, "go-style": StateNever, "other": StateNever} {
		if got := v.Of("rule", item); got.State != want {
			t.Errorf("%s: %+v, want %s", item, got, want)
		}
	}
	if got := v.Of("rule", "always"); got.Agent != "claude" || got.Reason != "session_start" || got.At == nil {
		t.Errorf("always: %+v", got)
	}
	if v.Of("skill", "always").State != StateNever {
		t.Error("a rule's report marks a skill of the same name")
	}
	s, _ := sessions(context.Background(), f.sys, Dir(f.sys, f.state))
	if len(s) != 1 || len(s[0].Files) != 2 {
		t.Fatalf("records: %+v", s)
	}

	// A later session that loads only the scoped rule is the last one.
	f.record(t, event("s2", filepath.Join(f.proj, "sub"), f.scoped, "path_glob_match"))
	v = mustRead(t, f.sys, f.state, f.proj)
	if got := v.Of("rule", "go-style"); got.State != StateLoaded || got.Reason != "path_glob_match" {
		t.Errorf("go-style: %+v", got)
	}
	if got := v.Of("rule", "always"); got.State != StateNotLoaded {
		t.Errorf("always: %+v", got)
	}
	// Seen from another project, the last session there is none.
	if got := mustRead(t, f.sys, f.state, filepath.Join(f.proj, "..", "other")).Of("rule", "always"); got.State != StateNotLoaded {
		t.Errorf("from another project: %+v", got)
	}
}

// Nothing recorded reads as never loaded, and a missing records
// directory is no error.
func TestNeverLoaded(t *testing.T) {
	f := newFixture(t)
	v := mustRead(t, f.sys, f.state, f.proj)
	if s, _ := v.Last(); s != "" {
		t.Errorf("last session %q", s)
	}
	if got := v.Of("rule", "always"); got.State != StateNever || got.At != nil {
		t.Errorf("%+v", got)
	}
}

func TestHostileInput(t *testing.T) {
	for name, payload := range map[string]string{
		"huge":        strings.Repeat(" ", MaxInput) + event("s", "/p", "/p/a.md", "session_start"),
		"malformed":   `{"session_id": "s", "file_path": `,
		"two values":  event("s", "/p", "/p/a.md", "x") + event("s", "/p", "/p/b.md", "x"),
		"other event": `{"session_id":"s","hook_event_name":"Stop","file_path":"/p/a.md"}`,
		"no session":  `{"hook_event_name":"InstructionsLoaded","file_path":"/p/a.md"}`,
		"no path":     `{"session_id":"s","hook_event_name":"InstructionsLoaded"}`,
		"empty":       "  \n",
		"not object":  `["InstructionsLoaded"]`,
	} {
		if _, err := ReadInput(strings.NewReader(payload)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	// An endless stdin is read up to the cap, no further.
	r := &endless{}
	if _, err := ReadInput(r); err == nil || r.n > MaxInput+64<<10 {
		t.Errorf("endless input: %v after %d bytes", err, r.n)
	}
	f := newFixture(t)
	in, _ := ReadInput(strings.NewReader(event("s", f.proj, "rules/always.md", "x")))
	if err := Record(context.Background(), f.sys, f.state, "claude", in); err == nil {
		t.Error("a relative file_path was recorded")
	}
	// Session ids never choose a path.
	f.record(t, event("../../../etc/x", f.proj, f.always, "session_start"))
	if _, err := os.Stat(filepath.Join(f.state, "..", "..", "..", "etc")); err == nil {
		t.Error("a session id escaped the records directory")
	}
}

type endless struct{ n int }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	e.n += len(p)
	return len(p), nil
}

// The records stay bounded: MaxSessions sessions, the newest kept; a
// killed writer's stale temporary file is removed, a fresh one is not.
func TestRecordsAreBounded(t *testing.T) {
	f := newFixture(t)
	dir := Dir(f.sys, f.state)
	f.record(t, event("first", f.proj, f.always, "session_start"))
	stale := filepath.Join(dir, ".charter-tmp-x.json-1")
	fresh := filepath.Join(dir, ".charter-tmp-y.json-2")
	users := filepath.Join(dir, ".z.json.tmp-3") // not charter's pattern
	// A fresh temporary file of a session's own record is a killed hook's:
	// that record is written only under its lock.
	own := filepath.Join(dir, fsys.TempName(filepath.Base(sessionPath(f.sys, dir, "s0")), 4))
	for _, p := range []string{stale, fresh, users, own} {
		coretest.WriteFile(t, p, "{")
	}
	old := time.Now().Add(-2 * fsys.StaleTempAge)
	os.Chtimes(stale, old, old)
	os.Chtimes(users, old, old)
	for i := range MaxSessions + 5 {
		f.record(t, event(fmt.Sprint("s", i), f.proj, f.always, "session_start"))
	}
	s, _ := sessions(context.Background(), f.sys, dir)
	if len(s) != MaxSessions {
		t.Fatalf("%d records kept, want %d", len(s), MaxSessions)
	}
	if s[0].Session != fmt.Sprint("s", MaxSessions+4) {
		t.Errorf("newest kept is %q", s[0].Session)
	}
	if _, err := os.Stat(stale); err == nil {
		t.Error("a stale temporary file was left")
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Error("a live writer's temporary file was removed")
	}
	if _, err := os.Stat(users); err != nil {
		t.Error("a file that only looks like a temporary one was removed")
	}
	if _, err := os.Stat(own); err == nil {
		t.Error("a killed hook's temporary record was left beside the record written under its lock")
	}
}

// Claude Code starts one hook per file at session start, together: every
// file of the session is recorded.
func TestConcurrentEventsOfOneSession(t *testing.T) {
	f := newFixture(t)
	var wg sync.WaitGroup
	for _, p := range []string{f.always, f.scoped, f.userRule, f.always} {
		wg.Go(func() {
			in, _ := ReadInput(strings.NewReader(event("s", f.proj, p, "session_start")))
			if err := Record(context.Background(), f.sys, f.state, "claude", in); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	s, _ := sessions(context.Background(), f.sys, Dir(f.sys, f.state))
	if len(s) != 1 || len(s[0].Files) != 3 {
		t.Fatalf("records: %+v", s)
	}
}

// A repository's malformed lock is an error for the hook to note, and
// nothing is recorded from it.
func TestMalformedLock(t *testing.T) {
	f := newFixture(t)
	coretest.WriteFile(t, filepath.Join(f.proj, ".charter", "projection.lock"), `{"version":7}`)
	in, _ := ReadInput(strings.NewReader(event("s", f.proj, f.always, "session_start")))
	if err := Record(context.Background(), f.sys, f.state, "claude", in); err == nil {
		t.Error("a malformed lock was read")
	}
	if got := mustRead(t, f.sys, f.state, f.proj).Of("rule", "always"); got.State != StateNever {
		t.Errorf("%+v", got)
	}
}

func mustRead(t *testing.T, sys *core.System, stateDir, root string) *View {
	t.Helper()
	v, err := Read(context.Background(), sys, stateDir, root)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// A cancelled ctx reads no record and records nothing: the report is
// the cancellation, never a view that says "never loaded".
func TestCancelled(t *testing.T) {
	f := newFixture(t)
	f.record(t, event("s1", f.proj, f.always, "session_start"))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if v, err := Read(ctx, f.sys, f.state, f.proj); !errors.Is(err, context.Canceled) || v != nil {
		t.Errorf("Read = %v, %v; want no view and context.Canceled", v, err)
	}
	before := coretest.Tree(t, f.state)
	in, err := ReadInput(strings.NewReader(event("s2", f.proj, f.always, "include")))
	if err != nil {
		t.Fatal(err)
	}
	if err := Record(ctx, f.sys, f.state, "claude", in); !errors.Is(err, context.Canceled) {
		t.Errorf("Record = %v, want context.Canceled", err)
	}
	if after := coretest.Tree(t, f.state); after != before {
		t.Errorf("a cancelled Record wrote:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}
