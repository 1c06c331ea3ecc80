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
