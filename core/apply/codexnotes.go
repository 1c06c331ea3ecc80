package apply

import (
	"fmt"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/fsys"
	"github.com/agentkit/charter/core/gates"
)

// Note is something the user has to do before an agent acts on what apply
// wrote; a target's "notes" in --json, a warning in the human report. Code
// is stable, for scripts.
type Note struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Fix     string `json:"fix"`
}

// The codes of a Note.
const (
	NoteCodexHookUnreviewed   = "codex-hook-unreviewed"
	NoteCodexHookModified     = "codex-hook-modified"
	NoteCodexHookDisabled     = "codex-hook-disabled"
	NoteCodexProjectUntrusted = "codex-project-untrusted"
	NoteCodexReviewUnknown    = "codex-review-unknown"
)

// CodexConfigFile is Codex's config.toml, in the Codex home: where it
// keeps the user's hook reviews and trusted projects.
const CodexConfigFile = "config.toml"

// CodexHookStatus is what Codex makes of charter's Stop hook in one
// hooks.json.
type CodexHookStatus struct {
	File    string // the hooks.json
	Config  string // the config.toml holding Codex's reviews
	Review  string // CodexReviewed, CodexUnreviewed, …; "" when Err
	Project string // for a project's hooks.json, the project root
	Trust   string // the project's trust_level in Config: "trusted", "untrusted" or ""
	Err     error  // Config could not be read
}

// CodexHookState tells what Codex makes of charter's Stop hook in the
// hooks.json at path, which holds data: the user-level file when project
// is "", else the one of the project at that root. Codex keeps the reviews
// in the config.toml of its home: beside the user-level hooks.json, and
// for a project's the home Codex runs with here ($CODEX_HOME, else
// ~/.codex). False when the file holds no charter hook.
func CodexHookState(sys *core.System, path string, data []byte, project string) (CodexHookStatus, bool) {
	h, ok := FindCodexHook(data)
	if !ok {
		return CodexHookStatus{}, false
	}
	st := CodexHookStatus{File: path, Project: project}
	home := sys.Paths.Dir(path)
	if project != "" {
		if home, st.Err = codexHome(sys); st.Err != nil {
			return st, true
		}
	}
	st.Config = sys.Paths.Join(home, CodexConfigFile)
	text, err := sys.ReadOptional(st.Config, fsys.KindAgentJSON)
	if err != nil {
		st.Err = err
		return st, true
	}
	cfg, err := parseCodexConfig(text)
	if err != nil {
		st.Err = fmt.Errorf("%s: %w", st.Config, err)
		return st, true
	}
	// Codex names the file by the path it read, links resolved or not.
	st.Review = cfg.review(h, realFirst(sys, path)...)
	if project != "" {
		dirs := realFirst(sys, project)
		if root := gitRoot(sys, project); root != "" && root != project {
			dirs = append(dirs, realFirst(sys, root)...)
		}
		st.Trust = cfg.trust(dirs...)
	}
	return st, true
}

// codexHome is the Codex home Codex runs with in this environment: its
// variable, else its directory below the home (not a companion profile's
// directory of another agent, which is where charter writes for it).
func codexHome(sys *core.System) (string, error) {
	a, ok := sys.AgentTable.Lookup(gates.CodexStop.Agent())
	if !ok {
		return "", fmt.Errorf("no agent %s in the agent table", gates.CodexStop.Agent())
	}
	if v := sys.Getenv(a.DirVar); v != "" {
		return sys.Normalize(v)
	}
	home, err := sys.Home()
	if err != nil {
		return "", err
	}
	return sys.Paths.Join(home, a.DefaultDir), nil
}

// realFirst is p with its links resolved, then p itself when different.
func realFirst(sys *core.System, p string) []string {
	if r, err := sys.RealPath(p); err == nil && r != p {
		return []string{r, p}
	}
	return []string{p}
}

// gitRoot is the nearest directory at or above dir holding .git (Codex's
// project root marker), "" when none does.
func gitRoot(sys *core.System, dir string) string {
	for d := dir; ; {
		if _, err := sys.Fs.Stat(sys.Paths.Join(d, ".git")); err == nil {
			return d
		}
		up := sys.Paths.Dir(d)
		if up == d {
			return ""
		}
		d = up
	}
}

// Notes says what keeps Codex from running the hook, each with its fix;
// none when Codex runs it.
func (s CodexHookStatus) Notes() []Note {
	if s.Err != nil {
		return []Note{{NoteCodexReviewUnknown,
			fmt.Sprintf("charter cannot tell whether Codex has reviewed charter's Stop hook in %s: %v", s.File, s.Err),
			"fix the file so that Codex can read it"}}
	}
	var out []Note
	where := "run `codex`"
	if s.Project != "" {
		where = "run `codex` in " + s.Project
		if s.Trust != "trusted" {
			why := "does not trust " + s.Project
			if s.Trust != "" {
				why = "has " + s.Project + " marked " + s.Trust
			}
			out = append(out, Note{NoteCodexProjectUntrusted,
				fmt.Sprintf("Codex reads %s only in a trusted project, and %s %s: it skips charter's Stop hook there", s.File, s.Config, why),
				fmt.Sprintf("%s and trust the folder when it asks (or set trust_level = \"trusted\" under [projects.%q] in %s), then review the hook", where, s.Project, s.Config)})
		}
	}
	const bound = "; the review is bound to the entry's command and timeout, so moving charter's binary or changing gates.timeout needs a new one"
	switch s.Review {
	case CodexUnreviewed:
		out = append(out, Note{NoteCodexHookUnreviewed,
			fmt.Sprintf("Codex skips charter's Stop hook in %s until you review it: the gates do not run when Codex stops", s.File),
			where + " and choose \"Trust all and continue\" at \"Hooks need review\" (or open /hooks and trust charter's Stop hook)" + bound})
	case CodexModified:
		out = append(out, Note{NoteCodexHookModified,
			fmt.Sprintf("Codex skips charter's Stop hook in %s: the review in %s is of an earlier entry (charter's command or timeout changed since)", s.File, s.Config),
			where + " and review it again: choose \"Trust all and continue\" at \"Hooks need review\" (or trust it in /hooks)" + bound})
	case CodexDisabled:
		out = append(out, Note{NoteCodexHookDisabled,
			fmt.Sprintf("Codex skips charter's Stop hook in %s: it is turned off in Codex's /hooks (%s)", s.File, s.Config),
			where + ", open /hooks and turn charter's Stop hook on"})
	}
	return out
}

// codexNotes are the notes of a Codex hook target as Run left it.
func codexNotes(sys *core.System, t Target) []Note {
	if !t.isHook || t.hook != gates.CodexStop {
		return nil
	}
	data, err := t.read(sys)
	if err != nil || data == nil {
		return nil
	}
	st, ok := CodexHookState(sys, t.Path, data, t.within)
	if !ok {
		return nil
	}
	return st.Notes()
}
