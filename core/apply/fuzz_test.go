package apply

import (
	"bytes"
	"errors"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"testing/iotest"
)

// Whatever the file holds, splice either refuses it with a MarkerError or
// yields exactly one block with the user's text around it unchanged.
func FuzzSplice(f *testing.F) {
	for _, s := range []string{
		"", "# Mine\n", "a\n" + BeginMarker + "\nold\n" + EndMarker + "\nb",
		BeginMarker, EndMarker + "\n" + BeginMarker, " " + BeginMarker + "\r\n" + EndMarker + "\t",
		BeginMarker + "\n" + BeginMarker + "\n" + EndMarker,
		"```\n" + testBlock + "```\n", "~~~~ x\n" + testBlock, "\ufeff" + testBlock, "\ufeff",
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
		// Appended, the block follows the whole text, blank lines and
		// perhaps the line that closes a fence the text leaves open.
		if !bytes.HasPrefix(data, before) && (!bytes.HasPrefix(before, data) || !appendedGap.Match(before[len(data):])) {
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

// holdsBlock, reading a stream, agrees with splice on every file: the same
// marker errors, and "current" exactly when splice would change nothing;
// spliceTo writes what splice makes.
func FuzzHoldsBlock(f *testing.F) {
	long := strings.Repeat("x", 70<<10)
	for _, s := range []string{
		"", "# Mine\n", "a\n" + testBlock + "b", testBlock, testBlock[:len(testBlock)-1],
		BeginMarker, EndMarker + "\n" + BeginMarker, " " + BeginMarker + "\r\n" + EndMarker + "\t",
		BeginMarker + "\n" + BeginMarker + "\n" + EndMarker, long + "\n" + testBlock + long,
		long + BeginMarker + "\n" + testBlock, testBlock + testBlock, "x", "x\n", "x\n\n", "\n",
		"```\n" + testBlock + "```\n" + testBlock, " ~~~\n" + testBlock + "~~\n", "\ufeff" + testBlock + "x", "\ufeff", "\ufeffx",
		long + "\n```" + long + "\n" + testBlock, "````\n" + testBlock + "```\n" + EndMarker,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, block := range [][]byte{[]byte(testBlock), blockOf(data)} {
			out, err := splice("F", data, block)
			got, gerr := holdsBlock("F", bytes.NewReader(data), block)
			if (err == nil) != (gerr == nil) || (err != nil && err.Error() != gerr.Error()) {
				t.Fatalf("errors differ: splice %v, holdsBlock %v", err, gerr)
			}
			if want := err == nil && bytes.Equal(out, data); got != want {
				t.Fatalf("holdsBlock says %v, splice changes the file: %v\n%q", got, !want, data)
			}
			if err != nil {
				continue
			}
			sc, _ := scanBlock("F", bytes.NewReader(data), block)
			for _, chunk := range []int{1, 7, 64} { // lines across chunks
				small, err := scanBlockChunks("F", iotest.OneByteReader(bytes.NewReader(data)), block, chunk)
				if err != nil || !reflect.DeepEqual(small, sc) {
					t.Fatalf("chunks of %d: %+v %v, whole: %+v", chunk, small, err, sc)
				}
			}
			var w bytes.Buffer
			if err := spliceTo(&w, bytes.NewReader(data), sc, block); err != nil || !bytes.Equal(w.Bytes(), out) {
				t.Fatalf("spliceTo (%v) wrote\n%q\nsplice\n%q", err, w.Bytes(), out)
			}
		}
	})
}

// blockOf is the managed block data holds, if any.
func blockOf(data []byte) []byte {
	blk, found, err := findBlock("F", data)
	if err != nil || !found {
		return []byte(testBlock)
	}
	return data[blk.start:blk.end]
}

// findBlock, over chunks, finds what a plain walk over every line finds.
func FuzzFindBlockLines(f *testing.F) {
	for _, s := range []string{
		"", "a\n" + testBlock + "b", " x " + BeginMarker + "\n" + BeginMarker + "\n" + EndMarker,
		BeginMarker + " " + BeginMarker + "\n" + EndMarker, "\u00a0" + BeginMarker + "\n" + EndMarker + "\u0085",
		"```go\n" + testBlock + "```\n", "```a`b\n" + testBlock, "    ```\n" + testBlock, "~~~\n```\n" + EndMarker + "~~~~\n",
		"\ufeff" + testBlock, "\ufeff```\n" + EndMarker, testBlock[:len(testBlock)-len(EndMarker)-1] + "```\n" + EndMarker,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		blk, found, err := findBlock("F", data)
		wblk, wfound, werr := findBlockLines(data)
		if (err == nil) != (werr == nil) || (err != nil && err.Error() != werr.Error()) || blk != wblk || found != wfound {
			t.Fatalf("findBlock %v %v %v, line walk %v %v %v\n%q", blk, found, err, wblk, wfound, werr, data)
		}
	})
}

var (
	// appendedGap is what splice may put between a text and the block it
	// appends.
	appendedGap = regexp.MustCompile("^\n*([`~]{3,}\n)?\n*$")
	// CommonMark's fences, as regular expressions.
	backtickOpen = regexp.MustCompile("^ {0,3}(`{3,})[^`]*$")
	tildeOpen    = regexp.MustCompile("^ {0,3}(~{3,})")
	fenceClose   = regexp.MustCompile("^ {0,3}(`+|~+)[ \t\r\n]*$")
)

// findBlockLines is findBlock written as plainly as possible: every line
// checked, fences by regular expression.
func findBlockLines(data []byte) (span, bool, error) {
	var (
		blk                 span
		found               bool
		beginLine, openLine int
		fence               string
	)
	for off, line := 0, 1; off < len(data); line++ {
		next := len(data)
		if i := bytes.IndexByte(data[off:], '\n'); i >= 0 {
			next = off + i + 1
		}
		start := off
		if off == 0 && bytes.HasPrefix(data, []byte("\ufeff")) {
			start = 3
		}
		text := string(data[start:next])
		off = next
		switch m := strings.TrimSpace(text); {
		case openLine > 0 && m == BeginMarker:
			return span{}, false, duplicateBegin("F", line, beginLine)
		case openLine > 0 && m == EndMarker:
			openLine, found, blk.end = 0, true, next
		case openLine > 0:
		case fence != "":
			if c := fenceClose.FindStringSubmatch(text); c != nil && c[1][0] == fence[0] && len(c[1]) >= len(fence) {
				fence = ""
			}
		case m == BeginMarker:
			if found {
				return span{}, false, duplicateBegin("F", line, beginLine)
			}
			openLine, beginLine, blk.start = line, line, start
		case m == EndMarker:
			return span{}, false, lonelyEnd("F", line)
		default:
			if o := backtickOpen.FindStringSubmatch(text); o != nil {
				fence = o[1]
			} else if o := tildeOpen.FindStringSubmatch(text); o != nil {
				fence = o[1]
			}
		}
	}
	if openLine > 0 {
		return span{}, false, lonelyBegin("F", openLine)
	}
	return blk, found, nil
}
