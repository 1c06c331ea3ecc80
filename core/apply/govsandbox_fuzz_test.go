package apply

import (
	"bytes"
	"testing"

	"github.com/agentkit/charter/core/tomledit"
)

// FuzzSandboxRound: for any config.toml Codex could read, cutting the
// network leaves a file that reads network_access = false (or, where
// charter leaves the table, the bytes as they were), and taking charter's
// line out again gives the user's bytes back.
func FuzzSandboxRound(f *testing.F) {
	for _, s := range []string{"", "model = \"o3\"\n", "[sandbox_workspace_write]\n# c\nnetwork_access = true # x\n[sandbox_workspace_write.a]\nb = 1\n",
		"[sandbox_workspace_write]\nwritable_roots = [\n  \"network_access = true\",\n]\n", "sandbox_workspace_write.network_access = true\n",
		"[sandbox_workspace_write]\nnetwork_access = false\n", "a = 1", "[x]\n[sandbox_workspace_write]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, orig string) {
		d, err := tomledit.Open([]byte(orig))
		if err != nil {
			return
		}
		b := &govBook{prev: map[string][]GovEntry{}, now: map[string][]GovEntry{}, kept: map[string][]GovKept{}}
		file := &govFile{path: "config.toml", agent: "codex", level: LevelUser, netOff: true}
		cut, owned, _, err := file.editSandbox(b, d)
		if err != nil {
			t.Fatalf("%q: %v", orig, err)
		}
		if len(owned) == 0 {
			if string(cut) != orig {
				t.Fatalf("%q changed with nothing recorded:\n%q", orig, cut)
			}
			return
		}
		dc, err := tomledit.Open(cut)
		if err != nil {
			t.Fatalf("%q: charter's edit is not TOML: %v\n%q", orig, err, cut)
		}
		if dc.Lookup("sandbox_workspace_write", "network_access") != false {
			t.Fatalf("%q: network_access is not false after the cut:\n%q", orig, cut)
		}
		b.prev["config.toml"] = owned
		file.netOff = false
		back, _, _, err := file.editSandbox(b, dc)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case string(back) == orig:
		case bytes.TrimSpace([]byte(orig)) == nil || len(bytes.TrimSpace([]byte(orig))) == 0:
		case !bytes.HasSuffix([]byte(orig), []byte("\n")) && string(back) == orig+"\n": // the newline Append adds
		default:
			t.Fatalf("%q: taken out again gives\n%q", orig, back)
		}
	})
}
