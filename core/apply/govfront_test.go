package apply

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentkit/charter/core/coretest"
)

// Amp and Auggie take the first matching rule: a user's allow put before
// charter's deny would win, so apply puts charter's entries back at the
// front, the user's entry kept after them.
func TestFrontRulesRestored(t *testing.T) {
	for _, tc := range []struct{ agent, rel, key, allow string }{
		{"augment", ".augment/settings.json", "toolPermissions", `{"toolName": "launch-process", "shellInputRegex": ".*", "permission": {"type": "allow"}}`},
		{"amp", ".config/amp/settings.json", "amp.permissions", `{"tool": "Bash", "action": "allow"}`},
	} {
		t.Run(tc.agent, func(t *testing.T) {
			sys, snap, proj, base := govSetup(t, LevelUser)
			file := filepath.Join(base, filepath.FromSlash(tc.rel))
			coretest.WriteFile(t, file, "{\"model\": \"x\"}\n")
			apply := func() []map[string]any {
				t.Helper()
				full, err := PlanAll(context.Background(), sys, snap, Request{Agents: []string{tc.agent}, Project: proj})
				if err != nil {
					t.Fatal(err)
				}
				govRunFull(t, sys, full)
				data, _ := os.ReadFile(file)
				var doc map[string]json.RawMessage
				var list []map[string]any
				if err := json.Unmarshal(data, &doc); err != nil || json.Unmarshal(doc[tc.key], &list) != nil {
					t.Fatalf("%s: %v\n%s", tc.rel, err, data)
				}
				return list
			}
			first := apply()
			if len(first) != 3 || !strings.Contains(mustJSON(first[0]), "git push --force") {
				t.Fatalf("%s after apply: %v, want charter's deny first of three", tc.key, first)
			}
			data, _ := os.ReadFile(file)
			at := strings.Index(string(data), "[") + 1
			coretest.WriteFile(t, file, string(data[:at])+tc.allow+", "+string(data[at:]))
			got := apply()
			if len(got) != 4 || mustJSON(got[0]) != mustJSON(first[0]) || mustJSON(got[3]) != canon([]byte(tc.allow)) {
				t.Errorf("%s after the user's allow went first and apply ran: %v, want charter's three first, the user's allow last", tc.key, got)
			}
		})
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
