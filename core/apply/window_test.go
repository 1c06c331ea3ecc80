package apply

import (
	"bytes"
	"strings"
	"testing"
)

// The diff read from a window around the block is the diff of the whole
// file, whatever the file, the block and the window's bound.
func FuzzWindowDiff(f *testing.F) {
	b := BeginMarker + "\n"
	e := EndMarker + "\n"
	for _, s := range []string{
		"",
		"no block\n",
		"no newline at the end",
		"two\n\n",
		b + "old\n" + e,
		"1\n2\n3\n4\n5\n6\n7\n8\n" + b + "old\n" + e + "9\n10\n11\n12\n13\n14\n",
		"1\n2\n3\n4\n5\n6\n7\n8\n" + b + "new\n" + e + "9\n",
		"x\ny\n" + b + "new\nline\n" + e,
		strings.Repeat("long line ", 40) + "\n" + b + "old\n" + e + strings.Repeat("z", 300),
		"1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11",
		"new\n1\n2\n" + b + "new\n" + e + "new\n",
	} {
		f.Add(s, "new", uint8(8))
		f.Add(s, "new\nline", uint8(0))
	}
	f.Fuzz(func(t *testing.T, text, blockText string, limit uint8) {
		data := []byte(text)
		block := []byte(b + blockText + "\n" + e)
		sc, err := scanBlockChunks("f", bytes.NewReader(data), block, 64)
		if err != nil {
			return // malformed markers: Plan refuses the file either way
		}
		next, err := splice("f", data, block)
		if err != nil {
			t.Fatalf("scan accepted what splice refuses: %v", err)
		}
		want := Diff("f", data, next)
		if sc.current(len(block)) {
			if want != "" {
				t.Fatalf("scan finds it current, the diff is\n%s", want)
			}
			return
		}
		got, ok, err := windowDiffMax("f", bytes.NewReader(data), sc, block, int(limit)+1)
		if err != nil {
			t.Fatal(err)
		}
		if ok && got != want {
			t.Fatalf("window (bound %d):\n%s\nwhole file:\n%s", int(limit)+1, got, want)
		}
		if got, ok, _ := windowDiff("f", bytes.NewReader(data), sc, block); !ok || got != want {
			t.Fatalf("window (default bound, ok %v):\n%s\nwhole file:\n%s", ok, got, want)
		}
	})
}
