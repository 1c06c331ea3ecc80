package apply

// Codex's sandbox (SPEC §14): a deny of web:* becomes network_access =
// false in [sandbox_workspace_write] of the config.toml charter already
// edits for servers. Only that one line is charter's: the user's other
// keys and comments in the table stay, a user's false stays theirs, and a
// user's true that charter turned to false is put back, byte for byte,
// when the deny goes (or on uninstall).

import (
	"bytes"
	"strings"

	"github.com/agentkit/charter/core/agents"
	"github.com/agentkit/charter/core/settings"
	"github.com/agentkit/charter/core/tomledit"
)

// The record key of charter's network_access line, and the line.
const (
	sandboxKey  = "sandbox_workspace_write.network_access"
	netOffLine  = "network_access = false\n"
	sandboxName = "sandbox_workspace_write"
)

// codexNetOff reports whether the rules cut Codex's network: a deny of
// web:* in any layer.
func codexNetOff(g *settings.Governance) bool {
	for _, e := range g.Rules("deny") {
		if r, err := settings.ParseRule(e.Rule); err == nil && r.Kind == settings.RuleWeb && r.Arg == settings.WebEvery {
			return true
		}
	}
	return false
}

// editSandbox brings charter's network_access line in d up to date: the
// new bytes, the record entry (nil: none of charter's) and what was left
// to the user.
func (f *govFile) editSandbox(b *govBook, d *tomledit.Doc) ([]byte, []GovEntry, []GovKept, error) {
	table := []string{sandboxName}
	rec, recorded := b.recorded(f.path, sandboxKey, "")
	start, end, hasLine := d.KeyLine(table, "network_access")
	ours := recorded && hasLine && string(d.Data[start:end]) == netOffLine
	entry := GovEntry{Path: f.path, Agent: f.agent, Key: sandboxKey}
	if recorded {
		entry.Prev, entry.Made = validPrev(rec.Prev), rec.Made
	}
	kept := func(why string) []GovKept {
		return []GovKept{{Agent: f.agent, Level: f.level, Path: f.path, What: "[sandbox_workspace_write] network_access", Reason: why}}
	}
	if !f.netOff {
		switch {
		case !recorded || !hasLine:
			return d.Data, nil, nil, nil
		case !ours:
			return d.Data, nil, kept("no longer wanted (no deny of web:*), but changed by hand since charter wrote it: left as yours"), nil
		case entry.Prev != "":
			return d.Replace(start, end, entry.Prev), nil, nil, nil
		}
		data := d.Replace(start, end, "")
		if entry.Made == 0 {
			return data, nil, nil, nil
		}
		// charter made the table: it goes when only its header is left.
		nd, err := tomledit.Open(data)
		if err != nil {
			return nil, nil, nil, err
		}
		if s, e, ok := nd.Block(table...); ok && bytes.Count(nd.Data[s:e], []byte("\n")) <= 1 {
			data = nd.Remove(s, e)
		}
		return data, nil, nil, nil
	}
	if v, isBool := d.Lookup(sandboxName, "network_access").(bool); isBool && !v && hasLine {
		if recorded {
			return d.Data, []GovEntry{entry}, nil, nil
		}
		return d.Data, nil, nil, nil // the user's own false: theirs
	}
	switch {
	case hasLine:
		if !recorded {
			entry.Prev = string(d.Data[start:end]) // the user's own line, put back when the deny goes
			if !bytes.HasSuffix(d.Data[start:end], []byte("\n")) {
				entry.Prev += "\n"
			}
		}
		return d.Replace(start, end, netOffLine), []GovEntry{entry}, nil, nil
	case d.Lookup(sandboxName) == nil:
		entry.Made = 1
		return d.Append(tomledit.Table(table, nil) + netOffLine), []GovEntry{entry}, nil, nil
	}
	if pos, ok := d.TableEnd(table); ok {
		line := netOffLine
		if pos > 0 && d.Data[pos-1] != '\n' { // the header or last key ends the file with no newline
			line = "\n" + line
		}
		return d.Insert(pos, line), []GovEntry{entry}, nil, nil
	}
	return d.Data, nil, kept("written as an inline table or dotted keys, which charter does not edit: set network_access = false there by hand, or write it as a [sandbox_workspace_write] table"), nil
}

// validPrev is a recorded line charter may write back: one line that sets
// network_access and nothing else. A record is input (a project's lock
// comes with the repository), so anything else is dropped.
func validPrev(line string) string {
	if line == "" || bytes.Count([]byte(line), []byte("\n")) != 1 || !bytes.HasSuffix([]byte(line), []byte("\n")) {
		return ""
	}
	d, err := tomledit.Open([]byte("[" + sandboxName + "]\n" + line))
	if err != nil || len(d.Values) != 1 {
		return ""
	}
	t, _ := d.Values[sandboxName].(map[string]any)
	if _, ok := t["network_access"]; !ok || len(t) != 1 {
		return ""
	}
	return line
}

// CodexSandboxPlace says where a deny of web:* goes for Codex at the level
// of pl (`charter permissions check`): the config.toml and the line; ok
// false for any other rule or verdict.
func CodexSandboxPlace(pl agents.Places, verdict string, r settings.Rule) (file, native string, ok bool) {
	if pl.PermFormat != "codex" || pl.MCPFormat != "codextoml" || verdict != "deny" || r.Kind != settings.RuleWeb || r.Arg != settings.WebEvery {
		return "", "", false
	}
	return pl.MCP, "[" + sandboxName + "] " + strings.TrimSuffix(netOffLine, "\n"), true
}
