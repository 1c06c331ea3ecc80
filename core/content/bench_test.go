package content_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/agentkit/charter/core/coretest"
)

// BenchmarkLoad reads the benchmark library (300 rules, 100 skills of 3
// files, 100 commands) from a project's .charter/, confined and capped.
func BenchmarkLoad(b *testing.B) {
	f := newFixtureTB(b)
	base := filepath.Join(f.project, ".charter")
	for i := range 300 {
		coretest.WriteFile(b, filepath.Join(base, "rules", fmt.Sprintf("r%d.md", i)), rule("rule", "balanced"))
	}
	for i := range 100 {
		n := fmt.Sprintf("s%d", i)
		coretest.WriteFile(b, filepath.Join(base, "skills", n, "SKILL.md"), "---\nname: "+n+"\ndescription: d\n---\nbody\n")
		coretest.WriteFile(b, filepath.Join(base, "skills", n, "ref.md"), "ref\n")
		coretest.WriteFile(b, filepath.Join(base, "skills", n, "scripts", "run.sh"), "#!/bin/sh\n")
		coretest.WriteFile(b, filepath.Join(base, "commands", fmt.Sprintf("c%d.md", i)), "---\ndescription: c\n---\nDo $ARGUMENTS.\n")
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		lib, err := f.load(b)
		if err != nil || len(lib.Items) != 500 {
			b.Fatal(err)
		}
	}
}
