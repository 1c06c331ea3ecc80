package projection

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/agentkit/charter/core/settings"
)

// yamlString is s as a double-quoted YAML scalar. Every character that
// could end the value, the line or the frontmatter (quotes, backslashes,
// control characters, line separators) is escaped, so no source value can
// add a key or close the frontmatter early.
func yamlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range validUTF8(s) {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case settings.ForbiddenRune(r) || r == '\uFEFF':
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// tomlBasic is s as a TOML basic string ("…", one line).
func tomlBasic(s string) string {
	return `"` + tomlEscape(s, false) + `"`
}

// tomlMultiline is s as a TOML multi-line basic string. Every quote and
// backslash is escaped, so no run of quotes in s (”'…”' or """) can end
// it early, and the bytes TOML forbids in a string are \u escapes.
func tomlMultiline(s string) string {
	return "\"\"\"\n" + tomlEscape(s, true) + "\"\"\""
}

func tomlEscape(s string, multiline bool) string {
	var b strings.Builder
	for _, r := range validUTF8(s) {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n' && multiline:
			b.WriteByte('\n')
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteByte('\t')
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7F:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// validUTF8 replaces invalid bytes: a projected file is always UTF-8.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

// oneLine folds s to one line of text (for a Markdown line naming globs).
func oneLine(s string) string {
	return strings.Join(strings.FieldsFunc(validUTF8(s), func(r rune) bool {
		return r == ' ' || settings.ForbiddenRune(r)
	}), " ")
}

// GlobLine is the first line of a rule projected where the agent cannot
// scope it by path.
func GlobLine(globs []string) string {
	q := make([]string, len(globs))
	for i, g := range globs {
		q[i] = "`" + strings.ReplaceAll(oneLine(g), "`", "'") + "`"
	}
	return "Applies only to files matching " + strings.Join(q, ", ") + "; ignore it elsewhere.\n\n"
}

// front is a frontmatter block from its lines ("" lines are left out); no
// lines gives no frontmatter at all.
func front(lines ...string) string {
	var b strings.Builder
	for _, l := range lines {
		if l != "" {
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	if b.Len() == 0 {
		return ""
	}
	return "---\n" + b.String() + "---\n"
}

// kv is one frontmatter line with a quoted value, "" for an empty value.
func kv(key, value string) string {
	if value == "" {
		return ""
	}
	return key + ": " + yamlString(value)
}

// list is a YAML block list of quoted strings, "" for none.
func list(key string, values []string) string {
	if len(values) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(key + ":")
	for _, v := range values {
		b.WriteString("\n  - " + yamlString(v))
	}
	return b.String()
}
