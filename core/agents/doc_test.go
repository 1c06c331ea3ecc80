package agents

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var updateDoc = flag.Bool("update-agents", false, "rewrite docs/agents.md from the table")

// docs/agents.md is the table, generated: a change to the table that the
// page does not show fails here (scripts/gen-agents-doc.sh rewrites it).
func TestAgentsDoc(t *testing.T) {
	path := filepath.Join("..", "..", "docs", "agents.md")
	want := TableMarkdown(Default())
	if *updateDoc {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != want {
		t.Fatalf("docs/agents.md is not the agent table (%v): run scripts/gen-agents-doc.sh", err)
	}
}

// Every agent of the table is whole: a name, a display name, a place for
// its block in a project or at user level, a reading set where it has a
// project file, how it was verified, and the pages its facts come from.
func TestAgentTableComplete(t *testing.T) {
	all := Default()
	if len(all) < 22 {
		t.Fatalf("%d agents, SPEC §17 lists 22", len(all))
	}
	seen := map[string]bool{}
	for _, a := range all {
		switch {
		case seen[a.Name]:
			t.Errorf("%s twice", a.Name)
		case a.Display == "" || a.Verified == "" || len(a.Docs) == 0 || a.Scoping == "" || a.Trust == "":
			t.Errorf("%s: display, verified, docs, scoping and trust are required: %+v", a.Name, a)
		case a.ProjectFile == "" && a.UserFile == "":
			t.Errorf("%s: no instruction file at either level", a.Name)
		case a.ProjectFile != "" && len(a.Reads) == 0:
			t.Errorf("%s: a project file but no reading set", a.Name)
		}
		seen[a.Name] = true
	}
}
