package apply

import (
	"errors"
	"strings"
	"testing"
)

const testBlock = BeginMarker + "\nnew\n" + EndMarker + "\n"

func TestSplice(t *testing.T) {
	tests := []struct {
		name string
		in   *string // nil: no file
		want string
	}{
		{"missing file", nil, testBlock},
		{"empty file", ptr(""), testBlock},
		{"no newline at end", ptr("# Mine"), "# Mine\n\n" + testBlock},
		{"one newline at end", ptr("# Mine\n"), "# Mine\n\n" + testBlock},
		{"blank line at end", ptr("# Mine\n\n"), "# Mine\n\n" + testBlock},
		{"one block", ptr("above\n" + BeginMarker + "\nold\nold\n" + EndMarker + "\nbelow"), "above\n" + testBlock + "below"},
		{"block at end without newline", ptr("above\n" + BeginMarker + "\nold\n" + EndMarker), "above\n" + testBlock},
		{"indented markers", ptr("  " + BeginMarker + "  \r\nold\r\n\t" + EndMarker + "\r\nbelow\r\n"), testBlock + "below\r\n"},
		{"quoted marker is text", ptr("see `" + BeginMarker + "`\n"), "see `" + BeginMarker + "`\n\n" + testBlock},
		// A byte order mark is kept, and is not part of the first line.
		{"BOM before the block", ptr(bomText + BeginMarker + "\nold\n" + EndMarker + "\nbelow\n"), bomText + testBlock + "below\n"},
		{"BOM, no block", ptr(bomText + "# Mine\n"), bomText + "# Mine\n\n" + testBlock},
		{"BOM alone", ptr(bomText), bomText + testBlock},
		// Markers in a fenced code example are text: the block is appended.
		{"example in a backtick fence", ptr(fencedExample), fencedExample + "\n" + testBlock},
		{"example in a tilde fence", ptr("~~~markdown\n" + testBlock + "~~~\n"), "~~~markdown\n" + testBlock + "~~~\n\n" + testBlock},
		{"example and block", ptr(fencedExample + BeginMarker + "\nold\n" + EndMarker + "\n" + fencedExample),
			fencedExample + testBlock + fencedExample},
		{"a shorter fence does not close", ptr("````\n```\n" + testBlock + "```\n````\n"), "````\n```\n" + testBlock + "```\n````\n\n" + testBlock},
		{"the other fence character does not close", ptr("~~~\n```\n" + testBlock + "~~~\n"), "~~~\n```\n" + testBlock + "~~~\n\n" + testBlock},
		{"indented three spaces", ptr("   ```\n" + testBlock + "   ```\n"), "   ```\n" + testBlock + "   ```\n\n" + testBlock},
		{"indented four spaces is no fence", ptr("    ```\n" + BeginMarker + "\nold\n" + EndMarker + "\n"), "    ```\n" + testBlock},
		{"a backtick in the info string is no fence", ptr("```a`b\n" + BeginMarker + "\nold\n" + EndMarker + "\n"), "```a`b\n" + testBlock},
		{"CRLF fence", ptr("```\r\n" + BeginMarker + "\r\n" + EndMarker + "\r\n```  \r\n"), "```\r\n" + BeginMarker + "\r\n" + EndMarker + "\r\n```  \r\n\n" + testBlock},
		// A fence left open runs to the end of the file: charter closes it
		// before its block, or the block would be code.
		{"unclosed fence", ptr("text\n````go\ncode\n" + testBlock), "text\n````go\ncode\n" + testBlock + "````\n\n" + testBlock},
		{"unclosed fence, no newline", ptr("~~~\ncode"), "~~~\ncode\n~~~\n\n" + testBlock},
		// Inside the block, which is charter's, a fence hides nothing.
		{"fence inside the block", ptr(BeginMarker + "\n```\n" + EndMarker + "\nbelow\n"), testBlock + "below\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var in []byte
			if tt.in != nil {
				in = []byte(*tt.in)
			}
			got, err := splice("CLAUDE.md", in, []byte(testBlock))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got\n%q\nwant\n%q", got, tt.want)
			}
			// Splicing again changes nothing.
			again, err := splice("CLAUDE.md", got, []byte(testBlock))
			if err != nil || string(again) != string(got) {
				t.Errorf("not idempotent: %q, %v", again, err)
			}
		})
	}
}

func TestSpliceBadMarkers(t *testing.T) {
	b, e := BeginMarker, EndMarker
	tests := []struct{ name, in, want string }{
		{"missing end", "x\n\n" + b + "\nold\n", "CLAUDE.md: unbalanced charter markers: begin at line 3 has no end"},
		{"end before begin", "x\n" + e + "\n" + b + "\n", "CLAUDE.md: unbalanced charter markers: end at line 2 has no begin"},
		{"end alone", e, "CLAUDE.md: unbalanced charter markers: end at line 1 has no begin"},
		{"extra end", b + "\n" + e + "\n" + e + "\n", "CLAUDE.md: unbalanced charter markers: end at line 3 has no begin"},
		{"duplicate begin", b + "\nx\n" + b + "\n" + e + "\n", "CLAUDE.md: duplicate charter markers: a second begin at line 3 (the first is at line 1)"},
		{"second block", b + "\n" + e + "\ntext\n" + b + "\n" + e + "\n", "CLAUDE.md: duplicate charter markers: a second begin at line 4 (the first is at line 1)"},
		{"BOM, end first", bomText + e + "\n" + b + "\n", "CLAUDE.md: unbalanced charter markers: end at line 1 has no begin"},
		{"fence closed, then a lonely end", "```\n" + b + "\n```\n" + e + "\n", "CLAUDE.md: unbalanced charter markers: end at line 4 has no begin"},
		{"block, then a begin", b + "\n" + e + "\n~~~\n~~~\n" + b + "\n", "CLAUDE.md: duplicate charter markers: a second begin at line 5 (the first is at line 1)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := splice("CLAUDE.md", []byte(tt.in), []byte(testBlock))
			var me *MarkerError
			if !errors.As(err, &me) {
				t.Fatalf("got %v, want a *MarkerError", err)
			}
			if !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("got %q\nwant %q…", err, tt.want)
			}
		})
	}
}

func ptr(s string) *string { return &s }

const bomText = "\ufeff"

// fencedExample is documentation that shows charter's block.
const fencedExample = "Charter writes a block like this:\n\n```markdown\n" + BeginMarker + "\n## Charter settings\n" + EndMarker + "\n```\n"
