package apply

import (
	"bytes"
	"errors"
	"testing"
)

// Whatever the file holds, splice either refuses it with a MarkerError or
// yields exactly one block with the user's text around it unchanged.
func FuzzSplice(f *testing.F) {
	for _, s := range []string{
		"", "# Mine\n", "a\n" + BeginMarker + "\nold\n" + EndMarker + "\nb",
		BeginMarker, EndMarker + "\n" + BeginMarker, " " + BeginMarker + "\r\n" + EndMarker + "\t",
		BeginMarker + "\n" + BeginMarker + "\n" + EndMarker,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		out, err := splice("F", data, []byte(testBlock))
		var me *MarkerError
		if err != nil {
			if !errors.As(err, &me) {
				t.Fatalf("error of the wrong type: %v", err)
			}
			return
		}
		blk, found, err := findBlock("F", out)
		if err != nil || !found || string(out[blk.start:blk.end]) != testBlock {
			t.Fatalf("result has no single block (%v):\n%q", err, out)
		}
		before, after := out[:blk.start], out[blk.end:]
		if !bytes.HasPrefix(data, before) && !bytes.HasPrefix(append(bytes.Clone(data), "\n\n"...), before) {
			t.Fatalf("text before the block changed:\n%q\n%q", data, before)
		}
		if !bytes.HasSuffix(data, after) {
			t.Fatalf("text after the block changed:\n%q\n%q", data, after)
		}
		if again, err := splice("F", out, []byte(testBlock)); err != nil || !bytes.Equal(again, out) {
			t.Fatalf("not idempotent: %v", err)
		}
	})
}
