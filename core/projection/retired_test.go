package projection_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentkit/charter/core/content"
	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/projection"
)

// Codex 0.169 reads no $CODEX_HOME/prompts/: a command is unsupported for
// Codex, and the prompt an earlier charter recorded there is pruned (the
// agent ignores it), not ignored and left behind. The user's own prompt
// beside it stays, and so does the folder holding it.
func TestRetiredPlacePruned(t *testing.T) {
	m := coretest.New(t)
	home := filepath.Join(m.Dir, "codex-home")
	prompt := filepath.Join(home, "prompts", "ship.md")
	mine := filepath.Join(home, "prompts", "mine.md")
	os.MkdirAll(filepath.Dir(prompt), 0o755)
	data := []byte("---\ndescription: \"Ship\"\n---\nShip $ARGUMENTS.\n")
	os.WriteFile(prompt, data, 0o644)
	os.WriteFile(mine, []byte("my own\n"), 0o644)
	recPath := filepath.Join(m.Dir, "state", "projection.json")
	os.MkdirAll(filepath.Dir(recPath), 0o755)
	rec := projection.Record{Version: projection.RecordVersion, Files: []projection.Recorded{
		{Path: prompt, SHA256: projection.Sum(data), Kind: "command", Item: "ship", Agent: "codex"}}}
	if err := os.WriteFile(recPath, rec.Encode(), 0o600); err != nil {
		t.Fatal(err)
	}

	items := []content.Item{{Kind: content.KindCommand, Name: "ship", Description: "Ship", Body: []byte("Ship $ARGUMENTS.\n")}}
	out := projection.Project(agentNamed("codex"), items, projection.Options{Level: content.LevelUser})
	if len(out.Files) != 0 || len(out.Gaps) != 1 || out.Gaps[0].Kind != content.KindCommand {
		t.Fatalf("codex command at user level: files %v, gaps %v", out.Files, out.Gaps)
	}
	p, err := projection.Make(context.Background(), m.Sys, projection.Request{RecordPath: recPath, Gaps: out.Gaps, Bases: map[string]string{"codex": home}})
	if err != nil {
		t.Fatal(err)
	}
	if s := states(p); s[projection.StatePruned] != 1 || s[projection.StateUnsupported] != 1 || len(p.Ignored) != 0 {
		t.Fatalf("states %v, ignored %v", s, p.Ignored)
	}
	if err := p.Run(context.Background(), m.Sys, false); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(prompt); !os.IsNotExist(err) {
		t.Fatalf("the recorded prompt is still there: %v", err)
	}
	if b, _ := os.ReadFile(mine); string(b) != "my own\n" {
		t.Fatal("the user's own prompt was touched")
	}
	if got, err := projection.ReadRecord(m.Sys, recPath, ""); err != nil || len(got.Files) != 0 {
		t.Fatalf("record after the prune: %v %v", got, err)
	}
}

// Copilot CLI lists .claude/commands/*.md, not .github/prompts/: its
// command is Claude's file, byte for byte, so with both agents selected
// the file is planned once; the prompt file an earlier charter recorded is
// pruned (the kind's folder stays, as every kind's folder does).
func TestCopilotCommandIsClaudes(t *testing.T) {
	m := coretest.New(t)
	root := filepath.Join(m.Dir, "proj")
	prompt := filepath.Join(root, ".github", "prompts", "ship.prompt.md")
	os.MkdirAll(filepath.Dir(prompt), 0o755)
	old := []byte("---\ndescription: \"Ship\"\n---\nShip ${input:args}.\n")
	os.WriteFile(prompt, old, 0o644)
	lock := filepath.Join(root, ".charter", "projection.lock")
	os.MkdirAll(filepath.Dir(lock), 0o755)
	rec := projection.Record{Version: projection.RecordVersion, Files: []projection.Recorded{
		{Path: ".github/prompts/ship.prompt.md", SHA256: projection.Sum(old), Kind: "command", Item: "ship", Agent: "copilot"}}}
	os.WriteFile(lock, rec.Encode(), 0o644)

	items := []content.Item{{Kind: content.KindCommand, Name: "ship", Description: "Ship", Body: []byte("Ship $ARGUMENTS.\n")}}
	var files []projection.Placed
	var got [][]byte
	for _, agent := range []string{"claude", "copilot"} {
		out := projection.Project(agentNamed(agent), items, projection.Options{Level: content.LevelProject})
		if len(out.Files) != 1 || out.Files[0].Rel != ".claude/commands/ship.md" {
			t.Fatalf("%s: %+v", agent, out)
		}
		got = append(got, out.Files[0].Data)
		files = append(files, projection.Placed{File: out.Files[0], Path: filepath.Join(root, ".claude", "commands", "ship.md")})
	}
	if string(got[0]) != string(got[1]) || !strings.Contains(string(got[1]), "Ship $ARGUMENTS.") {
		t.Fatalf("claude and copilot differ:\n%s\n%s", got[0], got[1])
	}
	p, err := projection.Make(context.Background(), m.Sys, projection.Request{Root: root, RecordPath: lock, Files: files})
	if err != nil {
		t.Fatal(err)
	}
	if s := states(p); s[projection.StateMissing] != 1 || s[projection.StatePruned] != 1 || len(p.Ignored) != 0 {
		t.Fatalf("states %v, ignored %v", s, p.Ignored)
	}
	if err := p.Run(context.Background(), m.Sys, false); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(prompt); !os.IsNotExist(err) {
		t.Fatalf("the recorded prompt file is still there: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(root, ".claude", "commands", "ship.md")); err != nil || string(b) != string(got[0]) {
		t.Fatalf("the command: %q %v", b, err)
	}
}
