package importer

import (
	"strings"

	"github.com/agentkit/charter/core/lazy"
)

var continueBash = lazy.Regexp{Expr: `^Bash\((.+)\)$`}

// fromContinue reads an entry of cn's permissions.yaml: Bash(P*) or
// Bash(P) is shell:P (a pattern with other wildcards has no rule); any
// other tool pattern has no rule in charter's grammar.
func fromContinue(e string) (rule, why string) {
	m := continueBash.Get().FindStringSubmatch(e)
	if m == nil {
		return "", "a Continue tool pattern charter's grammar has no rule for (charter reads Bash(COMMAND) and Bash(PREFIX*))"
	}
	p := strings.TrimSpace(strings.TrimSuffix(m[1], "*"))
	if p == "" || strings.ContainsAny(p, "*?") {
		return "", "a command pattern with wildcards inside: charter's shell: rule is a prefix; write it as shell:PREFIX by hand if that is meant"
	}
	return "shell:" + p, ""
}
