package settings

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// parsed is what the YAML parser makes of data, or false when it refuses it.
func parsed(data []byte) (*yaml.Node, bool) {
	var doc yaml.Node
	if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&doc); err != nil && !errors.Is(err, io.EOF) {
		return nil, false
	}
	return &doc, true
}

func checkPlainDoc(t *testing.T, text string) bool {
	t.Helper()
	got, ok := plainDoc([]byte(text))
	if !ok {
		return false
	}
	want, parses := parsed([]byte(text))
	if !parses {
		t.Fatalf("%q: taken by plainDoc, refused by the parser", text)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: plainDoc's tree differs from the parser's:\n got %s\nwant %s", text, dump(got), dump(want))
	}
	return true
}

func dump(n *yaml.Node) string {
	var b strings.Builder
	var walk func(*yaml.Node, int)
	walk = func(n *yaml.Node, depth int) {
		fmt.Fprintf(&b, "%s%d %s %q %d:%d style %d\n", strings.Repeat(" ", depth), n.Kind, n.Tag, n.Value, n.Line, n.Column, n.Style)
		for _, c := range n.Content {
			walk(c, depth+1)
		}
	}
	walk(n, 0)
	return b.String()
}

func TestPlainDocAsParser(t *testing.T) {
	taken := []string{
		"gates:\n  tests:\n    required: false\n",
		"rules:\n  tier: strict\n",
		"a: 1\nb: true\nc: word\n",
		"a:\n    b: 0\n    c: 123456789012345678\nd: x.y/z-w_v\n",
		"a:\n b:\n  c: d\n e: f\ng: h\n",
		"a:\n  b:\n    c: d\n  e: f\n",
		"a: null\nb: Null\nc: NULL\nd: True\ne: FALSE\n",
		"a: yes\nb: no\nc: on\nd: off\ne: y\n",
		"a: inf\nb: nan\nc: e1\n",
		"a" + strings.Repeat("j", 1023) + ": b\n", // the longest key YAML reads without a ?
	}
	for _, text := range taken {
		if !checkPlainDoc(t, text) {
			t.Errorf("%q: plainDoc should take it", text)
		}
	}
	left := []string{
		"", "a: b", "a:\n", "# c\na: b\n", "a: b # c\n", "a: b\n\nc: d\n", "a: 'b'\n", "a: \"b\"\n",
		"a:  b\n", "a: b \n", "a:\tb\n", "\ta: b\n", "a: b\r\n", " a: b\n", "a:\n  b: c\n d: e\n",
		"a: 1.5\n", "a: 0x10\n", "a: 010\n", "a: -1\n", "a: +1\n", "a: 2001-12-14\n", "a: 1234567890123456789\n",
		"a: .inf\n", "a: ~\n", "true: x\n", "null: x\n", "1: x\n", "a: [b]\n", "a: {b: c}\n", "- a\n",
		"a:\n- b\n", "a:\n  - b\n", "a: b: c\n", "a: b\na: c\n", "a:\n  b: c\nb:\n", "a: &x b\n", "a: *x\n",
		"a: !!str b\n", "---\na: b\n", "a: b\n...\n", "a: b\n---\nc: d\n", "<<: b\n", "a: é\n",
		"a:\nb: c\n", "a: b\n  c: d\n",
		"a" + strings.Repeat("j", 1024) + ": b\n", "x:\n  a" + strings.Repeat("j", 1024) + ":\n    y: z\n",
	}
	for _, text := range left {
		if checkPlainDoc(t, text) {
			t.Errorf("%q: plainDoc should leave it to the parser", text)
		}
	}
}

// Every file of up to three lines over words, indents and values that
// matter: whatever plainDoc takes, the parser makes the same tree of.
func TestPlainDocAsParserGrid(t *testing.T) {
	var lines []string
	for _, ind := range []string{"", " ", "  ", "   ", "    "} {
		for _, kv := range []string{"a:", "b:", "a: x", "a: 7", "ab: false", "a: null", "a: 0", "a: 01", "a:  x", "a: x ", "a: 1e3"} {
			lines = append(lines, ind+kv)
		}
	}
	taken := 0
	var try func(prefix string, n int)
	try = func(prefix string, n int) {
		if prefix != "" && checkPlainDoc(t, prefix) {
			taken++
		}
		if n == 0 {
			return
		}
		for _, l := range lines {
			try(prefix+l+"\n", n-1)
		}
	}
	try("", 3)
	if taken < 100 {
		t.Fatalf("plainDoc took only %d files of the grid", taken)
	}
}

func FuzzPlainDoc(f *testing.F) {
	for _, s := range []string{"gates:\n  tests:\n    required: false\n", "a:\n b: c\nd: 1\n", "a: b\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		checkPlainDoc(t, text)
	})
}
