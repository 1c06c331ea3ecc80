package apply

// The record of the permission and server entries charter put into
// agents' files (SPEC §14, §16): what the next apply may change or take
// out, and all that `charter uninstall` takes out. An entry is charter's
// when charter added it; one the user had already, or edited since, is
// theirs and is never touched.

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"
	"strings"
	"sync"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/fsys"
	"github.com/agentkit/charter/core/profile"
)

// GovStateFile is the user-level record below the scope; GovLockFile the
// project's, committed beside projection.lock.
const (
	GovStateFile = "state/governance.json"
	GovLockFile  = ".charter/governance.lock"
)

// GovEntry is one entry charter wrote: a list entry (Key
// "permissions.deny", Entry "Bash(git push:*)"), a server (Key
// "mcpServers" or "mcp_servers", Entry its name, SHA256 its value as
// written), or a whole file (Key "file", SHA256 its bytes).
type GovEntry struct {
	Path   string `json:"path"`
	Agent  string `json:"agent"`
	Key    string `json:"key"`
	Entry  string `json:"entry,omitempty"`
	SHA256 string `json:"sha256,omitempty"`
	// Made, on an entry with no Entry, says charter made the list or
	// object at Key, from its first Made keys down: uninstall takes out
	// what it left empty.
	Made int `json:"made,omitempty"`
	// Prev is the user's own line charter replaced (Codex's network_access
	// = true), written back when charter's line goes.
	Prev string `json:"prev,omitempty"`
}

// GovKept is an entry charter would write or take out, left as it is
// because it is the user's: added or edited by hand.
type GovKept struct {
	Agent  string `json:"agent"`
	Level  string `json:"level"`
	Path   string `json:"path"`
	What   string `json:"what"`
	Reason string `json:"reason"`
}

// GovRecordAgent names the record's own target in a report.
const GovRecordAgent = "charter"

// govBook is the record as read before a run and as each file's edit
// leaves it: the record target, planned last, writes it.
type govBook struct {
	sys               *core.System
	path, root, level string
	prev              map[string][]GovEntry // by absolute path
	mu                sync.Mutex            // files are edited at once (Run)
	now               map[string][]GovEntry // set by each file's edit
	kept              map[string][]GovKept
}

// readGovBook reads the record at path (root: the project, whose record
// paths are relative to it). A record charter cannot read is refused.
func readGovBook(sys *core.System, path, root, level string) (*govBook, error) {
	b := &govBook{sys: sys, path: path, root: root, level: level, prev: map[string][]GovEntry{}, now: map[string][]GovEntry{}, kept: map[string][]GovKept{}}
	data, err := sys.ReadWithin(root, path, fsys.KindState)
	if err != nil || len(bytes.TrimSpace(data)) == 0 {
		return b, err
	}
	var r struct {
		Version int        `json:"version"`
		Entries []GovEntry `json:"entries"`
	}
	if json.Unmarshal(data, &r) != nil || r.Version != 1 {
		return nil, core.Errorf(core.CodeProjectionConflict,
			"%s is not a record charter can read: restore it from version control, or remove it (charter then leaves the permission and server entries it wrote where they are, as yours)", path)
	}
	places := govPlaces(sys, root, level)
	for _, e := range r.Entries {
		p := e.Path
		if root != "" {
			p = sys.Paths.Join(append([]string{root}, strings.Split(e.Path, "/")...)...)
		}
		// A record is input (a committed lock comes with the repository):
		// only an entry charter itself could have written there counts.
		if format, ok := places[e.Agent+"\x00"+p]; !ok || !govKeyFits(format, e.Key) {
			continue
		}
		e.Path = p
		b.prev[p] = append(b.prev[p], e)
	}
	return b, nil
}

// govPlaces are the files charter writes permissions or servers into at
// level, by agent and path, with their formats.
func govPlaces(sys *core.System, root, level string) map[string]string {
	out := map[string]string{}
	for _, a := range sys.AgentTable.All() {
		pl := a.At(level)
		dir := root
		if root == "" {
			d, err := profile.AgentDir(sys, a)
			if err != nil {
				continue
			}
			dir = d
		}
		if pl.PermFormat != "" {
			out[a.Name+"\x00"+sys.Paths.Join(dir, pl.Permissions)] += pl.PermFormat + " "
		}
		if pl.PermPolicy != "" {
			out[a.Name+"\x00"+sys.Paths.Join(dir, pl.PermPolicy)] += "policy "
		}
		if pl.MCPFormat != "" {
			out[a.Name+"\x00"+mcpPath(sys, a, level, dir, pl.MCP)] += pl.MCPFormat + " "
		}
	}
	return out
}

// govKeyFits reports whether key is one charter writes in a file of these
// formats.
func govKeyFits(formats, key string) bool {
	for _, f := range strings.Fields(formats) {
		switch {
		case (f == "codex" || f == "policy") && key == "file",
			(f == "claude" || f == "cursor" || f == "qwen") && strings.HasPrefix(key, "permissions.") && strings.Count(key, ".") == 1,
			f == "opencode" && (key == "permission" || strings.HasPrefix(key, "permission.") && strings.Count(key, ".") == 1),
			f == "gemini" && (key == "tools.exclude" || key == "tools.allowed"),
			f == "droid" && (key == "commandBlocklist" || key == "commandDenylist" || key == "commandAllowlist"),
			f == "continue" && (key == "exclude" || key == "ask" || key == "allow"),
			f == "amp" && key == "amp.permissions", f == "augment" && key == "toolPermissions", f == "zed" && zedKey(key),
			f == "codextoml" && key == sandboxKey,
			f != "codex" && f != "claude" && serverKey(key) != nil && key == mcpMembers(f)[0]:
			return true
		}
	}
	return false
}

// recorded is the previous record's entry for key and entry at path.
func (b *govBook) recorded(path, key, entry string) (GovEntry, bool) {
	for _, e := range b.prev[path] {
		if e.Key == key && e.Entry == entry {
			return e, true
		}
	}
	return GovEntry{}, false
}

// settle is what an edit of path found: the entries now charter's, and
// those left to the user.
func (b *govBook) settle(path string, owned []GovEntry, kept []GovKept) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.now[path], b.kept[path] = owned, kept
}

// encode is the record as written: every file's entries as its last edit
// left them (a file no edit touched keeps its entries), sorted, one entry
// a line; nil when charter has no entry anywhere.
func (b *govBook) encode() []byte {
	var all []GovEntry
	for p, es := range b.prev {
		if _, ok := b.now[p]; !ok {
			all = append(all, es...)
		}
	}
	for _, es := range b.now {
		all = append(all, es...)
	}
	if len(all) == 0 {
		return nil
	}
	for i := range all {
		if b.root != "" {
			if parts, ok := b.sys.Paths.Within(b.root, all[i].Path); ok {
				all[i].Path = strings.Join(parts, "/")
			}
		}
	}
	slices.SortFunc(all, func(x, y GovEntry) int {
		return strings.Compare(x.Path+"\x00"+x.Key+"\x00"+x.Entry, y.Path+"\x00"+y.Key+"\x00"+y.Entry)
	})
	var out bytes.Buffer
	out.WriteString("{\"version\":1,\"entries\":[")
	for i, e := range all {
		if i > 0 {
			out.WriteByte(',')
		}
		line, _ := json.Marshal(e) // strings only: cannot fail
		out.WriteString("\n  ")
		out.Write(line)
	}
	out.WriteString("\n]}\n")
	return out.Bytes()
}

// keptList is every entry left to the user, by path.
func (b *govBook) keptList() []GovKept {
	var out []GovKept
	for _, ks := range b.kept {
		out = append(out, ks...)
	}
	slices.SortFunc(out, func(x, y GovKept) int { return strings.Compare(x.Path+x.What, y.Path+y.What) })
	return out
}

// target writes the record after every file it describes (it is planned
// last, so each file's edit has run): gone when nothing is recorded.
func (b *govBook) target() Target {
	return Target{Agent: GovRecordAgent, Level: b.level, Path: b.path, kind: fsys.KindState, unplace: true, private: b.root == "", last: true,
		edit: func([]byte) ([][]byte, error) { return whole(b.encode()), nil }}
}

// sumJSON is the sha256 of v's meaning: its JSON with object keys sorted,
// so that the same value written with other spacing or order is the same.
func sumJSON(v any) string {
	b, _ := json.Marshal(v)
	var plain any
	_ = json.Unmarshal(b, &plain)
	b, _ = json.Marshal(plain)
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func sumBytes(data []byte) string {
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:])
}
