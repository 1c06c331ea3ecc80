package apply

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/agentkit/charter/core/gates"
)

// Codex runs a hook that no administrator manages only once the user has
// reviewed it; `codex exec` skips an unreviewed one without a word (only
// the TUI says "Hooks need review"). Codex 0.169 keeps the review in the
// user's config.toml (codex-rs/hooks/src/engine/discovery.rs and
// config_rules.rs; every value below checked against the `hooks/list`
// answer of Codex 0.169's app-server):
//
//	[hooks.state."<hooks.json path>:stop:<group>:<handler>"]
//	trusted_hash = "sha256:<hex>"   # the definition the user approved
//	enabled = false                 # turned off in /hooks
//
// The hash covers the handler's definition, so a new charter path or a
// new gates.timeout needs a new review. charter only reads this: writing
// the review would approve a hook on the user's behalf.

// CodexHook is a command handler in the Stop list of a Codex hooks.json.
type CodexHook struct {
	Group, Handler int // its place: hooks.Stop[Group].hooks[Handler]
	Command        string
	Timeout        int // seconds, as Codex reads it: 600 when unset, at least 1
	Async          bool
	StatusMessage  string
}

// Key is the handler's key in config.toml's [hooks.state] when Codex read
// the hooks.json at file.
func (h CodexHook) Key(file string) string {
	return file + ":stop:" + strconv.Itoa(h.Group) + ":" + strconv.Itoa(h.Handler)
}

// Hash is the trusted_hash a review of the handler stores: the SHA-256 of
// the compact JSON, keys sorted, of the event and the normalized handler
// (a Stop group has no matcher; statusMessage only when set), as
// serde_json writes it.
func (h CodexHook) Hash() string {
	var b strings.Builder
	b.WriteString(`{"event_name":"stop","hooks":[{"async":`)
	b.WriteString(strconv.FormatBool(h.Async))
	b.WriteString(`,"command":`)
	serdeString(&b, h.Command)
	if h.StatusMessage != "" {
		b.WriteString(`,"statusMessage":`)
		serdeString(&b, h.StatusMessage)
	}
	b.WriteString(`,"timeout":` + strconv.Itoa(h.Timeout) + `,"type":"command"}]}`)
	sum := sha256.Sum256([]byte(b.String()))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// serdeString writes s as a JSON string the way serde_json does: only the
// quote, the backslash and control characters are escaped (Go's encoder
// also escapes U+2028, U+2029 and, by default, <, > and &).
func serdeString(b *strings.Builder, s string) {
	const hexDigits = "0123456789abcdef"
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20:
			b.WriteString(`\u00`)
			b.WriteByte(hexDigits[r>>4])
			b.WriteByte(hexDigits[r&0xf])
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
}

// FindCodexHook finds charter's Stop handler in a Codex hooks.json (the
// last, as apply keeps one); false when there is none or the file is not
// JSON of that shape. Keys are matched exactly, as Codex's parser does
// (encoding/json would also take "stop" for "Stop").
func FindCodexHook(data []byte) (CodexHook, bool) {
	var found CodexHook
	ok := false
	var groups []json.RawMessage
	if !member(bytes.TrimPrefix(data, bom), &groups, "hooks", "Stop") {
		return found, false
	}
	for gi, g := range groups {
		var handlers []json.RawMessage
		if !member(g, &handlers, "hooks") {
			continue
		}
		for hi, raw := range handlers {
			h, isCmd := codexHandler(raw)
			if isCmd && strings.HasSuffix(strings.TrimSpace(h.Command), gates.CodexStop.Suffix()) {
				h.Group, h.Handler = gi, hi
				found, ok = h, true
			}
		}
	}
	return found, ok
}

// member decodes the value at the path of object keys into v.
func member(data []byte, v any, path ...string) bool {
	for _, k := range path {
		var obj map[string]json.RawMessage
		if json.Unmarshal(data, &obj) != nil {
			return false
		}
		if data = obj[k]; data == nil {
			return false
		}
	}
	return json.Unmarshal(data, v) == nil
}

// codexHandler reads one handler as Codex normalizes it; false when it is
// not a command handler.
func codexHandler(raw json.RawMessage) (CodexHook, bool) {
	var obj map[string]json.RawMessage
	var typ string
	if json.Unmarshal(raw, &obj) != nil || json.Unmarshal(obj["type"], &typ) != nil || typ != "command" {
		return CodexHook{}, false
	}
	h := CodexHook{Timeout: 600}
	if json.Unmarshal(obj["command"], &h.Command) != nil {
		return CodexHook{}, false
	}
	if t := obj["timeout"]; t != nil && string(t) != "null" {
		n, err := strconv.ParseUint(string(t), 10, 63)
		if err != nil {
			return CodexHook{}, false // Codex reads whole seconds only
		}
		h.Timeout = int(max(n, 1))
	}
	if a := obj["async"]; a != nil {
		json.Unmarshal(a, &h.Async)
	}
	if s := obj["statusMessage"]; s != nil {
		json.Unmarshal(s, &h.StatusMessage)
	}
	return h, true
}

// What Codex makes of charter's hook, as config.toml records it.
const (
	CodexReviewed   = "reviewed"   // the recorded hash is the hook's: Codex runs it
	CodexUnreviewed = "unreviewed" // no review: Codex skips it
	CodexModified   = "modified"   // reviewed, but the entry changed since: skipped
	CodexDisabled   = "disabled"   // turned off in Codex's /hooks: skipped
)

// codexConfig is what charter reads of Codex's config.toml.
type codexConfig struct {
	state    map[string]map[string]any // [hooks.state], keys trimmed as Codex does
	projects map[string]string         // [projects."<dir>"] trust_level
}

// parseCodexConfig reads config.toml leniently, as Codex reads the parts
// charter needs: a malformed entry is skipped, not an error.
func parseCodexConfig(data []byte) (codexConfig, error) {
	var raw map[string]any
	if _, err := toml.Decode(string(data), &raw); err != nil {
		return codexConfig{}, fmt.Errorf("not TOML Codex can read: %w", err)
	}
	c := codexConfig{state: map[string]map[string]any{}, projects: map[string]string{}}
	if hooks, ok := raw["hooks"].(map[string]any); ok {
		states, _ := hooks["state"].(map[string]any)
		for k, v := range states {
			if s, ok := v.(map[string]any); ok && strings.TrimSpace(k) != "" {
				c.state[strings.TrimSpace(k)] = s
			}
		}
	}
	projects, _ := raw["projects"].(map[string]any)
	for k, v := range projects {
		if p, ok := v.(map[string]any); ok {
			c.projects[k], _ = p["trust_level"].(string)
		}
	}
	return c, nil
}

// review is the state of h in the hooks.json at files: one file under the
// names Codex may have read it by, the first with an entry counting.
func (c codexConfig) review(h CodexHook, files ...string) string {
	for _, f := range files {
		s, ok := c.state[h.Key(f)]
		if !ok {
			continue
		}
		hash, _ := s["trusted_hash"].(string)
		switch enabled, set := s["enabled"].(bool); {
		case set && !enabled:
			return CodexDisabled
		case hash == h.Hash():
			return CodexReviewed
		case hash != "":
			return CodexModified
		}
		return CodexUnreviewed
	}
	return CodexUnreviewed
}

// trust is the trust_level config.toml gives the first of dirs it names
// ("trusted", "untrusted"), "" when it names none.
func (c codexConfig) trust(dirs ...string) string {
	for _, d := range dirs {
		if level, ok := c.projects[d]; ok && level != "" {
			return level
		}
	}
	return ""
}
