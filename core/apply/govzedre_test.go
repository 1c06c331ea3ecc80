package apply

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/agentkit/charter/core/settings"
)

// zedPattern is the pattern of rule's first Zed entry for verdict.
func zedPattern(t *testing.T, verdict, rule string) (string, []zedEntry) {
	t.Helper()
	r, err := settings.ParseRule(rule)
	if err != nil {
		t.Fatal(err)
	}
	es, ok := zedEntries(verdict, r)
	if !ok {
		t.Fatalf("%s %s: no Zed entry", verdict, rule)
	}
	var e struct{ Pattern string }
	_ = json.Unmarshal([]byte(es[0].entry), &e)
	return e.Pattern, es
}

// matches checks that rule's pattern p (compiled as re) matches every
// string of match and none of not.
func matches(t *testing.T, rule, p string, re *regexp.Regexp, match, not []string) {
	t.Helper()
	for _, m := range match {
		if !re.MatchString(m) {
			t.Errorf("%s (%s) does not match %q", rule, p, m)
		}
	}
	for _, m := range not {
		if re.MatchString(m) {
			t.Errorf("%s (%s) matches %q", rule, p, m)
		}
	}
}

// A write rule's pattern matches the glob's paths as Zed's tools get them
// (after the worktree's folder, absolute, with .. folded by Zed) and
// nothing the glob's segments do not; hostile characters are literals;
// each reads back as the same glob.
func TestZedWritePattern(t *testing.T) {
	for _, c := range []struct {
		rule       string
		match, not []string
	}{
		{"write:.env", []string{"shop/.env", "/home/me/src/shop/.env", ".env"}, []string{"shop/.envx", "shop/x.env", "shop/.env/x"}},
		{"write:src/**", []string{"shop/src", "shop/src/a.go", "/abs/shop/src/a/b/c.go"}, []string{"shop/srcx/a.go", "shop/lib/a.go"}},
		{"write:**/*.pem", []string{"shop/a.pem", "shop/k/b/a.pem", "a.pem"}, []string{"shop/a.pemx", "shop/a/pem"}},
		{"write:a/**/b?.go", []string{"shop/a/b1.go", "shop/a/x/y/b2.go"}, []string{"shop/a/b12.go", "shop/a/x/b/.go"}},
		{"write:~/.ssh/**", []string{"~/.ssh/id", "/home/me/.ssh/config"}, []string{"shop/.sshx/id"}},
		{"write:(a)|b+c$^{2}.txt", []string{"shop/(a)|b+c$^{2}.txt"}, []string{"shop/a", "shop/b", "shop/(a)|bbc$^{2}.txt", "shop/(a)|b+c$^{2}xtxt"}},
		{"write:x.*y", []string{"shop/x.zzy", "shop/x.y"}, []string{"shop/xzzy", "shop/x.a/y"}},
	} {
		p, es := zedPattern(t, "deny", c.rule)
		if len(es) != len(zedWriteTools) {
			t.Errorf("%s: %d entries, want one per write tool (%d)", c.rule, len(es), len(zedWriteTools))
		}
		matches(t, c.rule, p, regexp.MustCompile(p), c.match, c.not)
		if g, ok := ZedGlobOf(p); !ok || "write:"+g != c.rule {
			t.Errorf("ZedGlobOf(%s) = %q %v, want %s", p, g, ok, c.rule)
		}
	}
	for _, p := range []string{`\.env`, `(?:^|/)\.env`, `(?:^|/).env$`, `(?:^|/)a|b$`, `secrets?/`, `(?:^|/)[^/]*\.(pem|key)$`} {
		if g, ok := ZedGlobOf(p); ok {
			t.Errorf("ZedGlobOf(%q) = %q, want not charter's form", p, g)
		}
	}
	for _, rule := range []string{"write:src/**", "write:a[bc].go"} {
		r, _ := settings.ParseRule(rule)
		if _, ok := zedEntries("allow", r); ok {
			t.Errorf("allow %s has a Zed entry: its pattern is wider than the rule", rule)
		}
	}
	if r, _ := settings.ParseRule("write:a[bc].go"); func() bool { _, ok := zedEntries("deny", r); return ok }() {
		t.Error("a [class] glob has a Zed entry")
	}
}

// A web rule's pattern is anchored on the URL's host: the domain (or its
// subdomains), never a host that only contains it, hides it in the user
// part or follows it with other characters.
func TestZedFetchPattern(t *testing.T) {
	for _, c := range []struct {
		rule       string
		match, not []string
	}{
		{"web:example.com", []string{"https://example.com", "http://EXAMPLE.com/a?b", "example.com/x", "https://u:p@example.com:8443/#f", "https://example.com./x", `https://example.com\x`},
			[]string{"https://example.com.evil.net/", "https://evil.net/example.com", "https://example.com@evil.net/", "https://example.com:80@evil.net/", "https://notexample.com/", "https://a.example.com/", "ftp://example.com/", `https://evil.net\@example.com/`}},
		{"web:*.example.com", []string{"https://a.example.com/", "b.c.example.com"}, []string{"https://example.com/", "https://a.example.com.evil.net/", "https://evil.net/?a.example.com"}},
		{"web:a|b(c)+$.io", []string{"https://a|b(c)+$.io/"}, []string{"https://a/", "https://b(c)+$.io/", "https://abbc$.io/"}},
		{"web:*", []string{"https://anything/", ""}, nil},
	} {
		for _, verdict := range []string{"deny", "allow"} {
			p, es := zedPattern(t, verdict, c.rule)
			if k := strings.Join(es[0].keys, "."); k != "agent.tool_permissions.tools.fetch."+zedLists.Get()[verdict] || strings.Contains(es[0].entry, "case_sensitive") {
				t.Errorf("%s %s: %s %s", verdict, c.rule, k, es[0].entry)
			}
			matches(t, c.rule, p, regexp.MustCompile("(?i)"+p), c.match, c.not) // Zed's default: no case
			if d, ok := ZedDomainOf(p); !ok || "web:"+d != c.rule {
				t.Errorf("ZedDomainOf(%s) = %q %v, want %s", p, d, ok, c.rule)
			}
		}
	}
	for _, p := range []string{`docs\.rs`, `^https://example\.com`, zedURLHead + `a.b` + zedURLTail, zedURLHead + zedURLTail} {
		if d, ok := ZedDomainOf(p); ok {
			t.Errorf("ZedDomainOf(%q) = %q, want not charter's form", p, d)
		}
	}
}

// An MCP tool's verdict is its default (Zed matches no pattern for MCP
// tools); a whole server has no Zed key.
func TestZedMCPEntry(t *testing.T) {
	r, _ := settings.ParseRule("mcp:github/create_issue")
	es, ok := zedEntries("ask", r)
	if !ok || len(es) != 1 || strings.Join(es[0].keys, ".") != "agent.tool_permissions.tools.mcp:github:create_issue" || es[0].entry != "default" {
		t.Errorf("mcp:github/create_issue: %+v %v", es, ok)
	}
	if !zedKey("agent.tool_permissions.tools.mcp:github:create_issue") || zedKey("agent.tool_permissions.tools.mcp:a:b.default") {
		t.Error("zedKey")
	}
	r, _ = settings.ParseRule("mcp:github")
	if _, ok := zedEntries("deny", r); ok {
		t.Error("a whole server has a Zed entry")
	}
}
