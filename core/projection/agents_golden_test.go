package projection_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentkit/charter/core/agents"
	"github.com/agentkit/charter/core/content"
	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/projection"
)

// Every agent of the table, every kind, both levels: the files charter
// writes, byte for byte, the rules its block carries and the kinds it has
// no place for (testdata/agents/NAME.golden; go test -update rewrites).
func TestAgentProjectionsGolden(t *testing.T) {
	for _, a := range agents.Default() {
		t.Run(a.Name, func(t *testing.T) {
			var b strings.Builder
			for _, level := range []string{content.LevelUser, content.LevelProject} {
				out := projection.Project(a, library(), projection.Options{Level: level, Autoload: true})
				fmt.Fprintf(&b, "### %s level\n", level)
				for _, f := range out.Files {
					fmt.Fprintf(&b, "== %s (%s %s, mode %o, always %v)\n%s", f.Rel, f.Kind, f.Item, f.Mode, f.Always, f.Data)
					if f.Note != "" {
						fmt.Fprintf(&b, "-- note: %s\n", f.Note)
					}
				}
				for _, r := range out.BlockRules {
					fmt.Fprintf(&b, "== in the block: rule %s\n", r.Name)
				}
				for _, g := range out.Gaps {
					fmt.Fprintf(&b, "== unsupported: %s %s\n", g.Kind, g.Item)
				}
			}
			coretest.Golden(t, filepath.Join("testdata", "agents", a.Name+".golden"), []byte(b.String()))
		})
	}
}
