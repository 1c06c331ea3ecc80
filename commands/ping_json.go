package commands

import (
	"slices"
	"strconv"

	"github.com/agentkit/charter/core"
)

// pingJSON is `ping --json`'s document, byte for byte what writeJSON
// makes of doc, written without reflection: encoding/json's first use of
// a struct type (its field cache) was a tenth of a ping process's own
// work. TestPingJSONAsEncoding holds the two equal, field by field.
func pingJSON(doc core.PingDoc) []byte {
	b := make([]byte, 0, 512)
	b = append(b, `{"ok":`...)
	b = strconv.AppendBool(b, doc.OK)
	b = appendField(b, "name", doc.Name)
	b = appendField(b, "version", doc.Version)
	p := doc.SwitcherProfile
	b = append(b, `,"switcherProfile":{"active":`...)
	b = strconv.AppendBool(b, p.Active)
	b = append(b, `,"provider":`...)
	b = appendStringPtr(b, p.Provider)
	b = append(b, `,"profile":`...)
	b = appendStringPtr(b, p.Profile)
	b = append(b, `},"capabilities":`...)
	b = appendCapabilities(b, doc.Capabilities)
	b = append(b, `,"configRoot":{"path":`...)
	b = appendJSONString(b, doc.ConfigRoot.Path)
	b = appendField(b, "source", doc.ConfigRoot.Source)
	b = append(b, `},"scope":{"kind":`...)
	b = appendJSONString(b, doc.Scope.Kind)
	b = appendField(b, "path", doc.Scope.Path)
	b = append(b, `},"project":`...)
	if pr := doc.Project; pr == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, `{"path":`...)
		b = appendJSONString(b, pr.Dir)
		b = append(b, `,"files":`...)
		b = appendStrings(b, pr.Files)
		b = append(b, '}')
	}
	b = append(b, `,"policy":`...)
	if doc.Policy == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, `{"path":`...)
		b = appendJSONString(b, doc.Policy.Path)
		b = append(b, '}')
	}
	b = append(b, `,"trust":`...)
	if t := doc.Trust; t == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, `{"state":`...)
		b = appendJSONString(b, t.State)
		if t.Command != "" {
			b = appendField(b, "command", t.Command)
		}
		if t.Error != "" {
			b = appendField(b, "error", t.Error)
		}
		b = append(b, '}')
	}
	if len(doc.MixedProfiles) > 0 {
		b = append(b, `,"mixedProfiles":[`...)
		for i, m := range doc.MixedProfiles {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"variable":`...)
			b = appendJSONString(b, m.Variable)
			b = appendField(b, "provider", m.Provider)
			b = appendField(b, "profile", m.Profile)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = append(b, '}')
	return append(indentJSON(b), '\n')
}

// indentJSON is json.Indent(b, "", "  ") for compact JSON made here: no
// blank outside a string. json.Indent's scanner validates as it goes, a
// tenth of ping's own work in its first use.
func indentJSON(b []byte) []byte {
	out := make([]byte, 0, 2*len(b))
	depth, inString := 0, false
	newline := func() {
		out = append(out, '\n')
		for range depth {
			out = append(out, ' ', ' ')
		}
	}
	for i := 0; i < len(b); i++ {
		c := b[i]
		if inString {
			out = append(out, c)
			if c == '\\' && i+1 < len(b) {
				i++
				out = append(out, b[i])
			} else if c == '"' {
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
			out = append(out, c)
		case '{', '[':
			if i+1 < len(b) && (b[i+1] == '}' || b[i+1] == ']') {
				out = append(out, c, b[i+1]) // empty: {} and [] stay on one line
				i++
				continue
			}
			out = append(out, c)
			depth++
			newline()
		case '}', ']':
			depth--
			newline()
			out = append(out, c)
		case ',':
			out = append(out, c)
			newline()
		case ':':
			out = append(out, c, ' ')
		default:
			out = append(out, c)
		}
	}
	return out
}

func appendStrings(b []byte, ss []string) []byte {
	if ss == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, s)
	}
	return append(b, ']')
}

// appendCapabilities writes the map as encoding/json does: keys sorted.
func appendCapabilities(b []byte, m map[string]bool) []byte {
	if m == nil {
		return append(b, "null"...)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, k)
		b = append(b, ':')
		b = strconv.AppendBool(b, m[k])
	}
	return append(b, '}')
}
