package importer

import (
	"strings"
	"testing"
)

// Zed's settings.json (with its comments): the terminal tool's patterns
// written as a command prefix become shell: rules; other patterns and
// other tools are skipped with why.
func TestImportZedToolPermissions(t *testing.T) {
	data := `// Zed settings
{
  "agent": {
    "tool_permissions": {
      "default": "confirm",
      "tools": {
        "terminal": {
          "always_deny": [{"pattern": "^git\\s+push\\s+--force(\\s|$)"}], // the policy's
          "always_confirm": [{"pattern": "^git\\s+push(\\s|$)"}],
          "always_allow": [{"pattern": "^go(\\s|$)", "case_sensitive": true}, {"pattern": "^cargo\\s+(build|test)"}],
        },
        "edit_file": {"always_deny": [{"pattern": "\\.env"}]},
      },
    },
  },
}
`
	items, err := ReadGovernance([]GovFile{{Path: "settings.json", Format: "zed", Perms: true, Data: []byte(data)}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, it := range items {
		got = append(got, it.State+" "+it.Verdict+" "+it.Rule)
	}
	want := []string{"skipped deny ", "imported deny shell:git push --force", "imported ask shell:git push", "imported allow shell:go", "skipped allow "}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("imported\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(items) == 5 && (!strings.Contains(items[0].Reason, "terminal tool's patterns only") || !strings.Contains(items[4].Reason, "command prefix")) {
		t.Errorf("reasons %q, %q", items[0].Reason, items[4].Reason)
	}
	if _, err := ReadGovernance([]GovFile{{Path: "settings.json", Format: "zed", Perms: true, Data: []byte(`{"agent": {"tool_permissions": {"tools": {"terminal": {"always_deny": "rm"}}}}}`)}}); err == nil || !strings.Contains(err.Error(), "always_deny") {
		t.Errorf("a list that is not one: %v", err)
	}
}
