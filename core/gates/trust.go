package gates

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/settings"
	"github.com/agentkit/charter/core/sources"
	"github.com/agentkit/charter/core/trust"
	"github.com/agentkit/charter/helpers/shell"
)

// A project's trust state (SPEC §13).
const (
	TrustTrusted   = "trusted"    // the user trusted exactly these values
	TrustUntrusted = "untrusted"  // never trusted, or the values changed since
	TrustNotNeeded = "not_needed" // no value of TrustKeys comes from a project layer
)

// runKeys are the values charter executes; the coverage report is
// a path the repository picks for charter to read, so it counts with them.
var runKeys = []string{settings.KeyGatesTestsCommand, settings.KeyGatesLintCommand, settings.KeyGatesCoverageCommand, settings.KeyGatesCoverageReport}

// steerKeys steer the Stop hook: a repository must not be able to trap the
// agent with them, so from a project layer they count only once trusted.
var steerKeys = []string{settings.KeyGatesTimeout, settings.KeyGatesOnFailure, settings.KeyGatesMaxBlocks}

// TrustKeys are the settings whose values from the project and
// project-local layers take effect only in a trusted project.
func TrustKeys() []string { return append(slices.Clone(runKeys), steerKeys...) }

// TrustValue is one value that needs the user's trust.
type TrustValue struct {
	Key   string `json:"key"`
	Value string `json:"value"`
	Layer string `json:"layer"` // project or projectLocal
	Path  string `json:"path"`  // the file that sets it
}

// Trust is a project's trust state: what it asks to run, and whether the
// user trusted exactly that.
type Trust struct {
	State string `json:"state"`
	// Root is the project's root; "" without a project.
	Root string `json:"root,omitempty"`
	// Values are the project's values of TrustKeys, in TrustKeys order;
	// SHA256 is their hash, the one `charter trust` records.
	Values []TrustValue `json:"values"`
	SHA256 string       `json:"sha256,omitempty"`
	// Changed: the project was trusted, with other values.
	Changed bool `json:"changed"`
	// Command trusts the project from anywhere: `charter trust --project-dir ROOT`.
	Command string `json:"command,omitempty"`
}

// Trusted reports whether the project's values may take effect.
func (t Trust) Trusted() bool { return t.State != TrustUntrusted }

// pending reports whether key's value waits for trust.
func (t Trust) pending(key string) bool {
	return t.State == TrustUntrusted && slices.ContainsFunc(t.Values, func(v TrustValue) bool { return v.Key == key })
}

// TrustOf is the trust state of the settings in snap: the project's values
// of TrustKeys (those whose effective value comes from the project or
// project-local layer, a non-empty one) and whether the user's trust
// record for the project's root has their hash. Values of the global,
// scope and policy layers are the user's or the administrator's own and
// never need trust.
func TrustOf(sys *core.System, snap *settings.Snapshot) (Trust, error) {
	p := snap.Project
	if p == nil {
		return Trust{State: TrustNotNeeded, Values: []TrustValue{}}, nil
	}
	t := Trust{Root: p.Dir, Values: []TrustValue{}, Command: TrustCommand(p.Dir)}
	projectFile, localFile := p.SettingsPath(), p.LocalPath()
	for _, key := range TrustKeys() {
		origin := snap.Origins[key]
		layer := ""
		switch origin {
		case projectFile:
			layer = settings.LayerProject
		case localFile:
			layer = settings.LayerProjectLocal
		default:
			continue
		}
		text := fmt.Sprint(snap.Values[key])
		if strings.TrimSpace(text) == "" {
			continue // runs nothing, reads nothing
		}
		t.Values = append(t.Values, TrustValue{Key: key, Value: text, Layer: layer, Path: origin})
	}
	// A server the project declares is a command the repository chooses
	// (SPEC §14): it is projected only once trusted, and a changed one asks
	// again.
	if snap.Gov != nil {
		for _, s := range snap.Gov.Servers {
			if s.Layer == settings.LayerProject || s.Layer == settings.LayerProjectLocal {
				b, _ := json.Marshal(struct {
					Command string            `json:"command,omitempty"`
					Args    []string          `json:"args,omitempty"`
					Env     map[string]string `json:"env,omitempty"`
					URL     string            `json:"url,omitempty"`
					Headers map[string]string `json:"headers,omitempty"`
				}{s.Command, s.Args, s.Env, s.URL, s.Headers})
				t.Values = append(t.Values, TrustValue{Key: settings.KeyMCPServers + "." + s.Name, Value: string(b), Layer: s.Layer, Path: s.Origin})
			}
		}
	}
	// A source the project pins is fetched and read only once trusted
	// (SPEC §15): its URL and commit count as the commands do, so a pull
	// that moves the pin asks again.
	pins, err := sources.ProjectPins(sys, p.Dir)
	if err != nil {
		return Trust{}, err
	}
	for _, v := range pins {
		t.Values = append(t.Values, TrustValue{Key: v.Key, Value: v.Value, Layer: settings.LayerProject, Path: v.Path})
	}
	if len(t.Values) == 0 {
		t.State = TrustNotNeeded
		return t, nil
	}
	t.SHA256 = TrustHash(t.Values)
	e, err := trust.EntryFor(sys, p.Dir)
	if err != nil {
		return Trust{}, err
	}
	switch {
	case e != nil && e.SHA256 == t.SHA256:
		t.State = TrustTrusted
	default:
		t.State, t.Changed = TrustUntrusted, e != nil
	}
	return t, nil
}

// TrustHash is the sha256 of the values' canonical encoding: a JSON object
// of key → value text, keys sorted. The layer does not count: moving a
// value between the two project files changes nothing that runs.
func TrustHash(vs []TrustValue) string {
	m := make(map[string]string, len(vs))
	for _, v := range vs {
		m[v.Key] = v.Value
	}
	b, _ := json.Marshal(m) // sorted keys
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// TrustCommand is the command that trusts the project rooted at root.
func TrustCommand(root string) string {
	return "charter trust --project-dir " + shell.Quote(root)
}

// TrustProject records the trust of the project of snap, for exactly the
// values whose hash is sha (what the user was shown): when the values
// changed since, it refuses (code untrusted) and records nothing. owner is
// the uid of a project owned by another user, nil for the user's own. The
// hub's "Trust this project's commands" shows TrustOf's Values, then calls
// this with its SHA256.
func TrustProject(sys *core.System, snap *settings.Snapshot, sha string, owner *int, confirmShared bool) (Trust, error) {
	t, err := TrustOf(sys, snap)
	if err != nil {
		return Trust{}, err
	}
	if snap.Project == nil {
		return t, core.Errorf(core.CodeUsage, "there is no project here to trust: run inside a project or give --project-dir DIR")
	}
	if sha != t.SHA256 {
		return t, core.Errorf(core.CodeUntrusted, "the project's commands changed since they were shown (%s): review them again before trusting", snap.Project.Dir)
	}
	hash := t.SHA256
	if hash == "" {
		hash = TrustHash(nil) // nothing to run: the record accepts the owner alone
	}
	err = trust.Record(sys, trust.Entry{Root: snap.Project.Dir, SHA256: hash, Owner: owner, Trusted: sys.Now().UTC()}, confirmShared)
	if err != nil {
		return t, err
	}
	if t.State == TrustUntrusted {
		t.State, t.Changed = TrustTrusted, false
	}
	return t, nil
}

// untrustedResult is a gate Run lists without running it.
func untrustedResult(cfg Config, name, command string) Result {
	trust := cfg.TrustCommand
	if trust == "" {
		trust = "charter trust"
	}
	return Result{Name: name, Status: StatusUntrusted, OutputTail: []string{}, Command: command,
		Message: fmt.Sprintf("not run: the project's own settings set it and you have not trusted them (a repository's commands never run unasked); check them, then run `%s`", trust)}
}

// Untrusted returns the gates that were not run because the project is
// not trusted.
func (r Report) Untrusted() []Result {
	var out []Result
	for _, g := range r.Gates {
		if g.Status == StatusUntrusted {
			out = append(out, g)
		}
	}
	return out
}

// TrustUnknown is ping's trust state when the settings cannot be read.
const TrustUnknown = "unknown"

// TrustStateOf is ping's "trust" for the settings of store st: nil
// without a project.
func TrustStateOf(sys *core.System, st *settings.Store) *core.TrustState {
	if st.Project() == nil {
		return nil
	}
	snap, err := st.Read()
	var t Trust
	if err == nil {
		t, err = TrustOf(sys, snap)
	}
	if err != nil {
		return &core.TrustState{State: TrustUnknown, Error: sys.ErrorMessage(err)}
	}
	ts := &core.TrustState{State: t.State}
	if t.State == TrustUntrusted {
		ts.Command = t.Command
	}
	return ts
}
