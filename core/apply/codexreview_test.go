package apply

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/agentkit/charter/core/coretest"
)

// The hashes Codex 0.169 itself reports for these handlers (currentHash in
// the hooks/list answer of `codex app-server`, the value a review stores
// as trusted_hash), each handler the only one of a Stop group.
func TestCodexHookHash(t *testing.T) {
	for _, c := range []struct {
		h    CodexHook
		want string
	}{
		{CodexHook{Command: "charter gate hook codex-stop", Timeout: 1920}, "f5a0b67b6b603235baa3b1c5f53f8a20b684e7e37e2912db7c25d1edc5de561c"},
		{CodexHook{Command: "/usr/local/bin/charter gate hook codex-stop", Timeout: 1920}, "996738c5821845be2c802adedf79c7c97e690e77701aae780deb598ad955a5f1"},
		{CodexHook{Command: "notify-send 'done'", Timeout: 5}, "0f37ee65b20fd125b70d5884b89f90a803a23e74abf7b10558acbc8a9dc0f862"},
		{CodexHook{Command: "charter gate hook codex-stop", Timeout: 600}, "d16d63d38b9f7f6a772aef931b325cec42e79d216ec47ece095467aaf60d26c0"},
		{CodexHook{Command: "charter gate hook codex-stop", Timeout: 1920, StatusMessage: "Checking gates"}, "8e38570b7bc66ae3fa6145e73de4321a6af8f7a3ffe8d4a74cd774d2f5b00514"},
		{CodexHook{Command: "charter gate hook codex-stop", Timeout: 30, Async: true}, "01e5b825f3f007c17a6a2b87fdc3403e6222bef51dbaf0d5420d1e06c43bf74f"},
		{CodexHook{Command: "/usr/local/bin/charter gate hook codex-stop", Timeout: 1}, "5f72abe85fbec2a5a28359972e97bb5f96b4455afb6ceeeb3b4cb182b6c13593"},
		// Escapes as serde_json writes them: \" and \\ and \t, but é, <, >,
		// & and U+2028 as they are.
		{CodexHook{Command: "'/opt/my tools/charter' --config-root \"/h/x\\\\y\" gate hook codex-stop\t\u2028é<>&", Timeout: 1920}, "5f285a993f301905d4c5211956466a9f109bffed93d15b0da2248de0357ef044"},
	} {
		if got := c.h.Hash(); got != "sha256:"+c.want {
			t.Errorf("%q timeout %d: hash %s, want sha256:%s", c.h.Command, c.h.Timeout, got, c.want)
		}
	}
}

func TestFindCodexHook(t *testing.T) {
	for _, c := range []struct {
		name, data string
		want       CodexHook
		ok         bool
	}{
		{"after the user's own Stop group",
			`{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"x"}]}],"Stop":[{"hooks":[{"type":"command","command":"notify-send done","timeout":5}]},{"hooks":[{"type":"command","command":"charter gate hook codex-stop","timeout":1920}]}]}}`,
			CodexHook{Group: 1, Command: "charter gate hook codex-stop", Timeout: 1920}, true},
		{"second in its group, after a prompt handler; no timeout is 600",
			`{"hooks":{"Stop":[{"hooks":[{"type":"prompt","prompt":"p"},{"type":"command","command":" '/a b/charter' gate hook codex-stop ","async":true,"statusMessage":"gates"}]}]}}`,
			CodexHook{Handler: 1, Command: " '/a b/charter' gate hook codex-stop ", Timeout: 600, Async: true, StatusMessage: "gates"}, true},
		{"a timeout of 0 is 1", `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"charter gate hook codex-stop","timeout":0}]}]}}`,
			CodexHook{Command: "charter gate hook codex-stop", Timeout: 1}, true},
		{"BOM", "\ufeff" + `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"charter gate hook codex-stop","timeout":3}]}]}}`,
			CodexHook{Command: "charter gate hook codex-stop", Timeout: 3}, true},
		{"Codex reads no fractional timeout", `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"charter gate hook codex-stop","timeout":1.5}]}]}}`, CodexHook{}, false},
		{"keys are exact", `{"hooks":{"stop":[{"hooks":[{"type":"command","command":"charter gate hook codex-stop"}]}]}}`, CodexHook{}, false},
		{"Claude's hook is not Codex's", `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"charter gate hook claude-stop"}]}]}}`, CodexHook{}, false},
		{"not JSON", `{"hooks":`, CodexHook{}, false},
		{"empty", ``, CodexHook{}, false},
	} {
		got, ok := FindCodexHook([]byte(c.data))
		if ok != c.ok || got != c.want {
			t.Errorf("%s: %+v %v, want %+v %v", c.name, got, ok, c.want, c.ok)
		}
	}
}

// codexWorld is a home with charter's hook in $HOME/.codex/hooks.json and
// in a repository's .codex/hooks.json, and the config.toml Codex reads.
type codexWorld struct {
	m                   *coretest.Machine
	userFile, repo, cfg string
	hook                CodexHook
}

func newCodexWorld(t *testing.T) codexWorld {
	m := coretest.New(t)
	w := codexWorld{m: m, userFile: filepath.Join(m.Home, ".codex", "hooks.json"),
		repo: filepath.Join(m.Dir, "repo"), cfg: filepath.Join(m.Home, ".codex", "config.toml"),
		hook: CodexHook{Command: "charter gate hook codex-stop", Timeout: 1920}}
	hooks := `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"charter gate hook codex-stop","timeout":1920}]}]}}`
	coretest.WriteFile(t, w.userFile, hooks)
	coretest.WriteFile(t, filepath.Join(w.repo, ".codex", "hooks.json"), hooks)
	if err := os.MkdirAll(filepath.Join(w.repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	return w
}

// state is CodexHookState of the user's file (project "") or the repo's,
// with config.toml holding cfg.
func (w codexWorld) state(t *testing.T, project, cfg string) (CodexHookStatus, []string) {
	t.Helper()
	coretest.WriteFile(t, w.cfg, cfg)
	file := w.userFile
	if project != "" {
		file = filepath.Join(project, ".codex", "hooks.json")
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	st, ok := CodexHookState(w.m.Sys, file, data, project)
	if !ok {
		t.Fatalf("%s: no charter hook found", file)
	}
	var codes []string
	for _, n := range st.Notes() {
		codes = append(codes, n.Code)
		if n.Message == "" || n.Fix == "" {
			t.Errorf("a note without message or fix: %+v", n)
		}
	}
	return st, codes
}

func review(file, hash string, extra string) string {
	return "model = \"o3\"\n\n[hooks.state." + strconv.Quote(file+":stop:0:0") + "]\ntrusted_hash = " + strconv.Quote(hash) + "\n" + extra
}

func TestCodexHookStateUser(t *testing.T) {
	w := newCodexWorld(t)
	for _, c := range []struct {
		name, cfg, review string
		codes             []string
	}{
		{"no config.toml entry", "model = \"o3\"\n", CodexUnreviewed, []string{NoteCodexHookUnreviewed}},
		{"reviewed", review(w.userFile, w.hook.Hash(), ""), CodexReviewed, nil},
		{"the key Codex trims", strings.Replace(review(w.userFile, w.hook.Hash(), ""), `."`, `." `, 1), CodexReviewed, nil},
		{"reviewed with another timeout", review(w.userFile, CodexHook{Command: w.hook.Command, Timeout: 600}.Hash(), ""), CodexModified, []string{NoteCodexHookModified}},
		{"turned off in /hooks", review(w.userFile, w.hook.Hash(), "enabled = false\n"), CodexDisabled, []string{NoteCodexHookDisabled}},
		{"an entry without a hash", review(w.userFile, "", "enabled = true\n"), CodexUnreviewed, []string{NoteCodexHookUnreviewed}},
		{"another handler's place", strings.Replace(review(w.userFile, w.hook.Hash(), ""), ":stop:0:0", ":stop:1:0", 1), CodexUnreviewed, []string{NoteCodexHookUnreviewed}},
	} {
		st, codes := w.state(t, "", c.cfg)
		if st.Err != nil || st.Review != c.review || !slices.Equal(codes, c.codes) || st.Config != w.cfg {
			t.Errorf("%s: %+v, notes %v; want %s, %v", c.name, st, codes, c.review, c.codes)
		}
	}
	st, codes := w.state(t, "", "[hooks.state\n")
	if st.Err == nil || !slices.Equal(codes, []string{NoteCodexReviewUnknown}) || !strings.Contains(st.Notes()[0].Message, w.cfg) {
		t.Errorf("unreadable config.toml: %+v, %v", st, codes)
	}
	if err := os.Remove(w.cfg); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(w.userFile)
	if st, _ := CodexHookState(w.m.Sys, w.userFile, data, ""); st.Err != nil || st.Review != CodexUnreviewed {
		t.Errorf("no config.toml: %+v", st)
	}
	if _, ok := CodexHookState(w.m.Sys, w.userFile, []byte(`{"hooks":{}}`), ""); ok {
		t.Error("a status for a file without charter's hook")
	}
}

func TestCodexHookStateProject(t *testing.T) {
	w := newCodexWorld(t)
	file := filepath.Join(w.repo, ".codex", "hooks.json")
	trust := func(dir, level string) string {
		return "\n[projects." + strconv.Quote(dir) + "]\ntrust_level = " + strconv.Quote(level) + "\n"
	}
	for _, c := range []struct {
		name, cfg, trust string
		codes            []string
	}{
		{"neither trusted nor reviewed", "", "", []string{NoteCodexProjectUntrusted, NoteCodexHookUnreviewed}},
		{"trusted, not reviewed", trust(w.repo, "trusted"), "trusted", []string{NoteCodexHookUnreviewed}},
		{"trusted and reviewed", trust(w.repo, "trusted") + review(file, w.hook.Hash(), ""), "trusted", nil},
		{"reviewed in an untrusted project", trust(w.repo, "untrusted") + review(file, w.hook.Hash(), ""), "untrusted", []string{NoteCodexProjectUntrusted}},
	} {
		st, codes := w.state(t, w.repo, c.cfg)
		if st.Err != nil || st.Trust != c.trust || !slices.Equal(codes, c.codes) {
			t.Errorf("%s: %+v, notes %v; want trust %q, %v", c.name, st, codes, c.trust, c.codes)
		}
	}
	// A project below the repository's root: Codex takes the root's trust.
	sub := filepath.Join(w.repo, "svc")
	coretest.WriteFile(t, filepath.Join(sub, ".codex", "hooks.json"), `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"charter gate hook codex-stop","timeout":1920}]}]}}`)
	if st, _ := w.state(t, sub, trust(w.repo, "trusted")); st.Trust != "trusted" {
		t.Errorf("the repository root's trust: %+v", st)
	}
	if st, _ := w.state(t, sub, trust(w.repo, "trusted")+trust(sub, "untrusted")); st.Trust != "untrusted" {
		t.Errorf("the project's own entry comes first: %+v", st)
	}
	// CODEX_HOME is the config Codex reads for a project's hook.
	other := filepath.Join(w.m.Dir, "codex-home")
	coretest.WriteFile(t, filepath.Join(other, "config.toml"), trust(w.repo, "trusted"))
	m := coretest.New(t, coretest.Home(w.m.Home), coretest.Env("CODEX_HOME="+other))
	data, _ := os.ReadFile(file)
	if st, _ := CodexHookState(m.Sys, file, data, w.repo); st.Config != filepath.Join(other, "config.toml") || st.Trust != "trusted" {
		t.Errorf("with CODEX_HOME: %+v", st)
	}
}

// Codex keys a review by the path it read the file at, which for a
// CODEX_HOME through a link is the resolved one.
func TestCodexHookStateLink(t *testing.T) {
	w := newCodexWorld(t)
	link := filepath.Join(w.m.Dir, "codex-link")
	if err := os.Symlink(filepath.Join(w.m.Home, ".codex"), link); err != nil {
		t.Skip("no symbolic links:", err)
	}
	data, _ := os.ReadFile(w.userFile)
	coretest.WriteFile(t, w.cfg, review(w.userFile, w.hook.Hash(), ""))
	if st, _ := CodexHookState(w.m.Sys, filepath.Join(link, "hooks.json"), data, ""); st.Review != CodexReviewed {
		t.Errorf("through the link, reviewed at the real path: %+v", st)
	}
	coretest.WriteFile(t, w.cfg, review(filepath.Join(link, "hooks.json"), w.hook.Hash(), ""))
	if st, _ := CodexHookState(w.m.Sys, filepath.Join(link, "hooks.json"), data, ""); st.Review != CodexReviewed {
		t.Errorf("through the link, reviewed at the link: %+v", st)
	}
}
