package settings

import (
	"fmt"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/coretest"
)

// unknownKeysFile is a settings file with n keys the schema does not know
// at the top level (a few with comments, lists or a section), beside one
// known key.
func unknownKeysFile(n int) []byte {
	var sb strings.Builder
	sb.WriteString("# big file\nrules:\n  tier: minimal\n")
	for i := range n {
		switch {
		case i%50 == 1:
			fmt.Fprintf(&sb, "# note %d\nsec%d:\n  name: v%d # inline\n", i, i, i)
		case i%10 == 2:
			fmt.Fprintf(&sb, "list%d: [a, b]\n", i)
		default:
			fmt.Fprintf(&sb, "key%d: value %d\n", i, i)
		}
	}
	return []byte(sb.String())
}

// BenchmarkParseUnknownKeys is one YAML parse of the file: the unit
// BenchmarkSetUnknownKeys is measured in.
func BenchmarkParseUnknownKeys(b *testing.B) {
	body := unknownKeysFile(10000)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, p := decodeFile(body); p != nil {
			b.Fatal(p)
		}
	}
}

// BenchmarkSetUnknownKeys is `settings set` on a file with 10,000 unknown
// keys: read, check, edit, encode and verify, without the disk.
func BenchmarkSetUnknownKeys(b *testing.B) {
	benchWrite(b, unknownKeysFile(10000))
}

// BenchmarkWriteBase is one PATCH merge under the lock: re-read, the
// per-key base check, edit, encode and verify, without the disk.
func BenchmarkWriteBase(b *testing.B) {
	fs := afero.NewMemMapFs()
	sys := coretest.New(b, coretest.Fs(fs), coretest.Home("/h")).Sys
	st := New(sys, core.Scope{Kind: core.ScopeGlobal, Path: "/h/c"})
	afero.WriteFile(fs, st.Path(), []byte("# mine\nrules:\n  tier: full # why\ngates:\n  on_failure: ask\n"), 0o600)
	tiers := []string{"minimal", "balanced", "full"}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		u := Update{Set: map[string]any{"rules.tier": tiers[i%3]}, Base: map[string]any{"rules.tier": tiers[(i+2)%3]}}
		if _, err := st.Write(u); err != nil {
			b.Fatal(err)
		}
	}
}

// benchWrite times one `settings set` of rules.tier on a fresh copy of
// body per run, in memory.
func benchWrite(b *testing.B, body []byte) {
	fs := afero.NewMemMapFs()
	sys := coretest.New(b, coretest.Fs(fs), coretest.Home("/h")).Sys
	st := New(sys, core.Scope{Kind: core.ScopeGlobal, Path: "/h/c"})
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		afero.WriteFile(fs, st.Path(), body, 0o600)
		if _, err := st.Write(Update{Set: map[string]any{"rules.tier": []string{"full", "balanced"}[i%2]}}); err != nil {
			b.Fatal(err)
		}
	}
}
