package importer

import (
	"strings"
	"testing"

	"github.com/agentkit/charter/core/settings"
)

// TestFromNative pins the mapping both ways it can go: into charter's
// grammar, or skipped with why.
func TestFromNative(t *testing.T) {
	for _, c := range []struct{ format, native, rule string }{
		{"claude", "Bash(git push --force:*)", "shell:git push --force"},
		{"claude", "Bash(npm run test *)", "shell:npm run test"},
		{"claude", "Bash(npm test)", ""},
		{"claude", "Bash", ""},
		{"claude", "Read(./.env)", "read:.env"},
		{"claude", "Read(//etc/passwd)", ""},
		{"claude", "Edit(src/**)", "write:src/**"},
		{"claude", "WebFetch(domain:pkg.go.dev)", "web:pkg.go.dev"},
		{"claude", "mcp__github", "mcp:github"},
		{"claude", "mcp__github__create_issue", "mcp:github/create_issue"},
		{"claude", "TodoWrite", ""},
		{"claude", "WebFetch", "web:*"},
		{"gemini", "run_shell_command(git push --force)", "shell:git push --force"},
		{"gemini", "write_file", ""},
		{"gemini", "web_fetch", "web:*"},
		{"cursor", "Shell(rm)", "shell:rm"},
		{"cursor", "Write(./dist/**)", "write:dist/**"},
		{"cursor", "Mcp(a:b)", ""},
	} {
		rule, why := fromNative(c.format, c.native)
		if rule != c.rule || (rule == "") == (why == "") {
			t.Errorf("%s %q: rule %q (why %q), want %q", c.format, c.native, rule, why, c.rule)
		}
	}
}

// FuzzNativeRules: any native entry is imported as a rule charter reads
// back the same, or reported with why; never both, never a panic.
func FuzzNativeRules(f *testing.F) {
	for _, s := range []string{"Bash(git push:*)", "Read(../x)", "mcp__a__b__c", "run_shell_command()", "Shell(a b)", "WebFetch(domain:a/b)"} {
		f.Add("claude", s)
	}
	f.Fuzz(func(t *testing.T, format, e string) {
		if format != "claude" && format != "gemini" && format != "cursor" {
			format = "claude"
		}
		data := `{"permissions":{"deny":[` + jsonString(e) + `]},"tools":{"exclude":[` + jsonString(e) + `]}}`
		items, err := ReadGovernance([]GovFile{{Path: "f.json", Format: format, Perms: true, Data: []byte(data)}})
		if err != nil {
			t.Fatalf("a list of text is readable: %v", err)
		}
		for _, it := range items {
			switch it.State {
			case StateImported:
				r, err := settings.ParseRule(it.Rule)
				if err != nil || r.String() != it.Rule || it.Reason != "" {
					t.Errorf("%q imported as %q, which charter reads as %v %v", e, it.Rule, r, err)
				}
			case StateSkipped:
				if it.Reason == "" || it.Rule != "" {
					t.Errorf("%q skipped without a reason: %+v", e, it)
				}
			default:
				t.Errorf("%q: state %q", e, it.State)
			}
			if !strings.HasPrefix(it.Native, "permissions.") && !strings.HasPrefix(it.Native, "tools.") {
				t.Errorf("native %q does not say where it was", it.Native)
			}
		}
	})
}

func jsonString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20:
			b.WriteString(`\u00`)
			b.WriteByte("0123456789abcdef"[r>>4])
			b.WriteByte("0123456789abcdef"[r&15])
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
