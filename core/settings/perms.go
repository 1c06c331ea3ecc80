package settings

// The agent-neutral permission grammar (SPEC §14): one rule is
// KIND:ARGUMENT, checked the same way in every layer and in the policy.

import (
	"fmt"
	"path"
	"strings"
)

// The permission keys and their verdicts, strongest first: deny beats ask
// beats allow.
const (
	KeyPermissionsDeny  = "permissions.deny"
	KeyPermissionsAsk   = "permissions.ask"
	KeyPermissionsAllow = "permissions.allow"
	KeyMCPDisabled      = "mcp.disabled"
)

// The grammar as JSON Schema patterns (RE2 and ECMA alike).
const (
	rulePattern       = `^(shell: *[^ ].*|(read|write): *[^ /\\].*|web: *[^/: ]+ *|mcp: *[A-Za-z0-9_-]{1,64}(/[A-Za-z0-9_-]{1,64})? *)$`
	serverNamePattern = `^[A-Za-z0-9_-]{1,64}$`
)

// verdicts in the order they win.
var verdicts = []string{"deny", "ask", "allow"}

// VerdictKey is the settings key of a verdict.
func VerdictKey(verdict string) string { return "permissions." + verdict }

// The kinds of rule.
const (
	RuleShell = "shell"
	RuleRead  = "read"
	RuleWrite = "write"
	RuleWeb   = "web"
	RuleMCP   = "mcp"
)

// WebEvery is web:*'s argument: every domain, the whole network.
const WebEvery = "*"

// Rule is one parsed permission rule.
type Rule struct {
	Kind string // shell, read, write, web, mcp
	Arg  string // the command prefix, glob, domain or SERVER[/TOOL]
}

func (r Rule) String() string { return r.Kind + ":" + r.Arg }

// ParseRule reads one rule; the error says what is wrong and how to write
// it.
func ParseRule(s string) (Rule, error) {
	kind, arg, ok := strings.Cut(s, ":")
	if !ok {
		return Rule{}, fmt.Errorf("%q has no kind: write shell:COMMAND, read:GLOB, write:GLOB, web:DOMAIN or mcp:SERVER[/TOOL]", s)
	}
	r := Rule{Kind: kind, Arg: strings.TrimSpace(arg)}
	switch kind {
	case RuleShell:
		if r.Arg == "" {
			return Rule{}, fmt.Errorf("%q names no command: write the words a command line starts with, such as shell:git push --force", s)
		}
		r.Arg = strings.Join(strings.Fields(r.Arg), " ")
	case RuleRead, RuleWrite:
		if err := checkGlob(r.Arg); err != nil {
			return Rule{}, fmt.Errorf("%q: %v", s, err)
		}
	case RuleWeb:
		if r.Arg == "" || strings.ContainsAny(r.Arg, "/: ") {
			return Rule{}, fmt.Errorf("%q: give a domain alone, such as web:example.com or web:*.example.com (no scheme, port or path)", s)
		}
		if r.Arg != WebEvery && strings.Contains(strings.TrimPrefix(r.Arg, "*."), "*") {
			return Rule{}, fmt.Errorf("%q: a * stands only for every domain (web:*) or before a dot for the subdomains (web:*.example.com)", s)
		}
		r.Arg = strings.ToLower(r.Arg)
	case RuleMCP:
		srv, tool, _ := strings.Cut(r.Arg, "/")
		if !validServerName(srv) || strings.Contains(tool, "/") || (strings.Contains(r.Arg, "/") && !validServerName(tool)) {
			return Rule{}, fmt.Errorf("%q: write mcp:SERVER or mcp:SERVER/TOOL, names of letters, digits, - and _", s)
		}
	default:
		return Rule{}, fmt.Errorf("%q: unknown kind %q: use shell, read, write, web or mcp", s, kind)
	}
	return r, nil
}

// checkGlob keeps a path rule inside the project or the home folder.
func checkGlob(g string) error {
	switch {
	case g == "":
		return fmt.Errorf("names no path: give a glob relative to the project, such as read:.env or read:secrets/**")
	case strings.HasPrefix(g, "/") || (len(g) > 1 && g[1] == ':'):
		return fmt.Errorf("is an absolute path: give a glob relative to the project, or one under ~/")
	case strings.Contains(g, `\`):
		return fmt.Errorf("has a backslash: write paths with /")
	}
	rel := strings.TrimPrefix(g, "~/")
	if c := path.Clean(rel); c == ".." || strings.HasPrefix(c, "../") {
		return fmt.Errorf("leads out of the project with ..: give a glob inside the project, or one under ~/")
	}
	return nil
}

func validServerName(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// ruleProblem is the schema's item check for the permission keys.
func ruleProblem(s string) string {
	if _, err := ParseRule(s); err != nil {
		return err.Error()
	}
	return ""
}

// serverNameProblem is the item check of mcp.disabled.
func serverNameProblem(s string) string {
	if !validServerName(s) {
		return fmt.Sprintf("%q is not a server name: use letters, digits, - and _", s)
	}
	return ""
}

// Covers reports whether every action b matches is also matched by a: a
// lower layer's allow that a policy deny covers must not stand.
func (a Rule) Covers(b Rule) bool {
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case RuleShell:
		return b.Arg == a.Arg || strings.HasPrefix(b.Arg, a.Arg+" ")
	case RuleMCP:
		return b.Arg == a.Arg || strings.HasPrefix(b.Arg, a.Arg+"/")
	case RuleWeb:
		return a.Arg == WebEvery || b.Arg == a.Arg || strings.HasPrefix(a.Arg, "*.") && strings.HasSuffix(b.Arg, a.Arg[1:])
	}
	return globMatch(a.Arg, b.Arg)
}

// Overlaps reports whether some action matches both a and b: an allow that
// overlaps a policy deny or ask would loosen it where the agent's own
// precedence differs, so it is refused too.
func (a Rule) Overlaps(b Rule) bool { return a.Covers(b) || b.Covers(a) }

// Matches reports whether the action (same grammar, a concrete command,
// path, domain or server/tool) falls under the rule.
func (a Rule) Matches(action Rule) bool { return a.Covers(action) }

// globMatch matches a path against a glob where ** spans folders and * and
// ? stay inside one.
func globMatch(glob, name string) bool {
	if glob == name {
		return true
	}
	gs, ns := strings.Split(glob, "/"), strings.Split(name, "/")
	return matchSegs(gs, ns)
}

func matchSegs(gs, ns []string) bool {
	for len(gs) > 0 {
		if gs[0] == "**" {
			for i := 0; i <= len(ns); i++ {
				if matchSegs(gs[1:], ns[i:]) {
					return true
				}
			}
			return false
		}
		if len(ns) == 0 {
			return false
		}
		if ok, err := path.Match(gs[0], ns[0]); err != nil || !ok {
			return false
		}
		gs, ns = gs[1:], ns[1:]
	}
	return len(ns) == 0
}
