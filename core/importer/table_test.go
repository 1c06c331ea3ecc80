package importer

import (
	"strings"
	"testing"

	"github.com/agentkit/charter/core/agents"
	"github.com/agentkit/charter/core/content"
)

// The rule formats of the agent table read back as charter sources: a
// scoped rule keeps its globs, an always-on one has none, a mode charter
// has no field for is always loaded and said so.
func TestRuleReaders(t *testing.T) {
	for _, c := range []struct {
		format, native, want, note string
	}{
		{"trigger", "---\ntrigger: glob\nglobs: \"**/*.go\"\n---\nGo.\n", "---\nglobs: ['**/*.go']\n---\nGo.\n", ""},
		{"trigger", "---\ntrigger: always_on\n---\nAll.\n", "All.\n", ""},
		{"trigger", "---\ntrigger: model_decision\ndescription: When asked\n---\nM.\n", "---\ndescription: When asked\n---\nM.\n", "trigger: model_decision has no charter field"},
		{"kiro", "---\ninclusion: fileMatch\nfileMatchPattern: [\"src/**\"]\n---\nK.\n", "---\nglobs: [src/**]\n---\nK.\n", ""},
		{"kiro", "---\ninclusion: manual\n---\nK.\n", "K.\n", "inclusion: manual has no charter field"},
		{"continue", "---\nname: c\nglobs: src/**\nalwaysApply: false\n---\nC.\n", "---\nglobs: [src/**]\n---\nC.\n", ""},
		{"augment", "---\ntype: agent_requested\ndescription: d\n---\nA.\n", "---\ndescription: d\n---\nA.\n", "type: agent_requested has no charter field"},
	} {
		cand := &Candidate{Kind: content.KindRule, Name: "r"}
		readers.Get()[c.format](cand, []byte(c.native))
		note := strings.Join(cand.Notes, "; ")
		if string(cand.Data) != c.want || (c.note == "") != (note == "") || !strings.Contains(note, c.note) {
			t.Errorf("%s %q:\n got %q (notes %q)\nwant %q (note %q)", c.format, c.native, cand.Data, note, c.want, c.note)
		}
	}
}

// Every format the table gives a rule or command has a reader.
func TestEveryTableFormatReads(t *testing.T) {
	for _, a := range agents.Default() {
		for _, p := range []agents.Places{a.User, a.Project} {
			for _, pl := range []agents.Place{p.Rules, p.Commands} {
				if pl.Dir != "" && readers.Get()[pl.Format] == nil {
					t.Errorf("%s: no reader for %s files in %s", a.Name, pl.Format, pl.Dir)
				}
			}
		}
	}
}
