package projection

import (
	"strings"

	"github.com/agentkit/charter/core/content"
	"github.com/agentkit/charter/core/lazy"
)

// A source keeps every frontmatter key it was written or imported with
// (SPEC §16); a key that one agent reads reaches that agent's file only,
// and a peer tool's own key none.

// peerKeys are rulesync's and ruler's keys for their own use.
var peerKeys = []string{"targets", "root", "claudecode", "codexcli", "geminicli", "cursor", "copilot", "copilotcli", "opencode"}

// keyAgent names, per kind, the one agent that reads a key. A skill's
// allowed-tools and disable-model-invocation are the Agent Skills
// format's, so every agent gets them.
var keyAgent = lazy.Value[map[content.Kind]map[string]string]{Make: func() map[content.Kind]map[string]string {
	return map[content.Kind]map[string]string{
		content.KindCommand:  {"allowed-tools": "claude", "model": "claude", "disable-model-invocation": "claude", "alwaysApply": "cursor"},
		content.KindSkill:    {"model": "claude", "alwaysApply": "cursor"},
		content.KindSubagent: {"alwaysApply": "cursor"},
	}
}}

// keptKeys is the text of the source's keys that agent reads, in the
// source's order and bytes, leaving out the keys in skip (those the
// projector writes itself).
func keptKeys(agent string, it *content.Item, skip ...string) string {
	var b strings.Builder
	keys := it.Keys
	if keys == nil && len(it.Front) > 0 { // not split at parsing: an item built elsewhere
		keys = content.KeyTexts(it.Front)
	}
	for _, kt := range keys {
		owner, owned := keyAgent.Get()[it.Kind][kt.Key]
		switch {
		case contains(skip, kt.Key), contains(peerKeys, kt.Key), owned && owner != agent, !plainLines(kt.Text):
			continue
		}
		b.WriteString(kt.Text)
		if !strings.HasSuffix(kt.Text, "\n") {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// plainLines reports text whose only line breaks are \n (and \r\n): YAML
// also breaks at a lone CR, NEL, LS and PS, which an agent's reader may
// not, so such a key could read differently there.
func plainLines(text string) bool {
	return !strings.ContainsAny(strings.ReplaceAll(text, "\r\n", "\n"), "\r\u0085\u2028\u2029")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
