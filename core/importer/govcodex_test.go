package importer

import "testing"

// What apply writes for a deny of web:* (core/apply's sandbox goldens)
// reads back as that deny; a true is reported, never imported as a rule.
func TestCodexSandboxImport(t *testing.T) {
	for data, want := range map[string]string{
		"# my Codex\n[sandbox_workspace_write]\n# my roots\nwritable_roots = [\"/tmp/x\"]\nnetwork_access = false\n": "imported deny web:*",
		"[sandbox_workspace_write]\nnetwork_access = true   # npm\n":                                                 "skipped  ",
		"[sandbox_workspace_write]\nwritable_roots = []\n":                                                           "",
		"sandbox_workspace_write = { network_access = false }\n":                                                     "imported deny web:*",
	} {
		items, err := ReadGovernance([]GovFile{{Path: "config.toml", Format: "codextoml", MCP: true, Data: []byte(data)}})
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		for _, it := range items {
			got = it.State + " " + it.Verdict + " " + it.Rule
			if it.State == StateSkipped && it.Reason == "" {
				t.Errorf("%q: skipped without a reason", data)
			}
		}
		if got != want {
			t.Errorf("%q: %q, want %q", data, got, want)
		}
	}
}
