package apply

// Gemini CLI: tools.exclude in settings.json does not hold a shell deny
// against a grant (--allowed-tools, --yolo); a deny of its policy engine
// does. charter writes its shell denies and asks as [[rule]]s of a
// policy file it owns whole (policies/charter.toml below the user-level
// Gemini home), edited like Codex's rules file (editRules).

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/agentkit/charter/core/agents"
	"github.com/agentkit/charter/core/settings"
)

// geminiProjectPolicyWhy is why a shell deny is not enforced in a
// project: Gemini CLI does not load a project's .gemini/policies/.
const geminiProjectPolicyWhy = "Gemini CLI loads no project policy files (.gemini/policies/ is disabled upstream, gemini-cli#18186) and its tools.exclude, which charter writes, does not hold against --allowed-tools or --yolo: apply at user level to enforce it"

// geminiPolicyRule is one shell rule as a [[rule]] of Gemini's policy
// engine, or "" when the verdict has no rule there (allow stays in
// tools.allowed). A deny outranks an ask of a shorter prefix.
func geminiPolicyRule(verdict string, r settings.Rule) string {
	decision, priority := "", 0
	every := r.Kind == settings.RuleWeb && r.Arg == settings.WebEvery // web_fetch: every URL
	switch {
	case r.Kind != settings.RuleShell && !every:
		return ""
	case verdict == "deny":
		decision, priority = "deny", 999
	case verdict == "ask":
		decision, priority = "ask_user", 998
	default:
		return ""
	}
	if every {
		return fmt.Sprintf("[[rule]]\ntoolName = \"web_fetch\"\ndecision = %q\npriority = %d\n", decision, priority)
	}
	prefix, _ := json.Marshal(r.Arg) // a TOML basic string: JSON's escapes are TOML's
	return fmt.Sprintf("[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = %s\ndecision = %q\npriority = %d\n", prefix, decision, priority)
}

// geminiPolicy is charter's policy file, nil when it holds no rule.
func geminiPolicy(rules []string) []byte {
	if len(rules) == 0 {
		return nil
	}
	var b bytes.Buffer
	b.WriteString("# Written by charter from its permissions settings (charter permissions list).\n")
	b.WriteString("# Edit the settings, not this file: charter apply rewrites it.\n")
	for _, r := range rules {
		b.WriteString("\n" + r)
	}
	return b.Bytes()
}

// GeminiPolicyPlace says where a rule the policy engine takes goes at
// the level of pl (`charter permissions check`): the file and the rule as
// written, or why it is not enforced; ok false when the rule is not one
// for Gemini's policy engine.
func GeminiPolicyPlace(pl agents.Places, verdict string, r settings.Rule) (file, native, why string, ok bool) {
	if pl.PermFormat != "gemini" || geminiPolicyRule(verdict, r) == "" {
		return "", "", "", false
	}
	if pl.PermPolicy == "" {
		return "", "", geminiProjectPolicyWhy, true
	}
	decision := map[string]string{"deny": "deny", "ask": "ask_user"}[verdict]
	if r.Kind == settings.RuleWeb {
		return pl.PermPolicy, fmt.Sprintf("[[rule]] toolName = \"web_fetch\", decision = %q", decision), "", true
	}
	return pl.PermPolicy, fmt.Sprintf("[[rule]] toolName = \"run_shell_command\", commandPrefix = %q, decision = %q", r.Arg, decision), "", true
}
