package projection

import (
	"encoding/json"
	"reflect"
	"testing"
)

func recordSeeds() [][]byte {
	r := Record{Version: 1, Files: []Recorded{
		{Path: ".claude/rules/a.md", SHA256: Sum([]byte("a")), Kind: "rule", Item: "a", Agent: "claude"},
		{Path: "dir with space/b.md", SHA256: Sum([]byte("b")), Kind: "skill", Item: "b", Agent: "codex"},
	}}
	withAgents := r
	withAgents.Agents = []string{"claude", "codex"}
	odd := r
	odd.Files = append(odd.Files, Recorded{Path: `q"uote&<é>.md`, SHA256: Sum(nil), Kind: "rule", Item: "q", Agent: "cursor"})
	return [][]byte{r.Encode(), withAgents.Encode(), odd.Encode(), Record{Version: 1}.Encode(),
		[]byte(`{"version":1,"files":[` + "\n  " + `{"path":"a","sha256":"x","kind":"k","item":"i","agent":"g","extra":"1"}` + "\n]}\n")}
}

// Whatever the fast reader accepts, encoding/json reads the same way.
func FuzzDecodeRecord(f *testing.F) {
	for _, s := range recordSeeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fast, ok := decodeRecord(data)
		if !ok {
			return
		}
		var slow Record
		if err := json.Unmarshal(data, &slow); err != nil {
			t.Fatalf("fast reader accepted what encoding/json refuses (%v): %q", err, data)
		}
		if !reflect.DeepEqual(fast, slow) && !(len(fast.Files) == len(slow.Files) && fast.Same(slow)) {
			t.Fatalf("readings differ:\nfast %+v\nslow %+v", fast, slow)
		}
	})
}

// Every record Encode writes without escapes takes the fast path.
func TestDecodeRecordFastPath(t *testing.T) {
	seeds := recordSeeds()
	for i, want := range []bool{true, true, false, false, false} {
		r, ok := decodeRecord(seeds[i])
		if ok != want {
			t.Fatalf("seed %d: fast path %v, want %v", i, ok, want)
		}
		if ok && !reflect.DeepEqual(r.Encode(), seeds[i]) {
			t.Fatalf("seed %d: read back as\n%s", i, r.Encode())
		}
	}
}
