package content

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

func TestFrontmatter(t *testing.T) {
	for _, tc := range []struct {
		name, in  string
		present   bool
		body      string
		keys      []string
		line      int // of the problem; 0: none
		problemIn string
	}{
		{name: "none", in: "# Title\nbody\n", body: "# Title\nbody\n"},
		{name: "plain", in: "---\ndescription: d\ntier: full\n---\nbody\n", present: true, body: "body\n", keys: []string{"description", "tier"}},
		{name: "crlf", in: "---\r\ndescription: d\r\n---\r\nbody\r\n", present: true, body: "body\r\n", keys: []string{"description"}},
		{name: "bom", in: "\xef\xbb\xbf---\ndescription: d\n---\n", present: true, body: "", keys: []string{"description"}},
		{name: "empty", in: "---\n---\nbody", present: true, body: "body"},
		{name: "comments only", in: "---\n# nothing\n---\n", present: true},
		{name: "closing at end without newline", in: "---\na: 1\n---", present: true, keys: []string{"a"}},
		{name: "dashes later are body", in: "text\n---\na: 1\n---\n", body: "text\n---\na: 1\n---\n"},
		{name: "unclosed", in: "---\na: 1\n", line: 1, problemIn: "never closed"},
		{name: "bad yaml", in: "---\ndescription: d\ntier: [full\n---\n", line: 3, problemIn: "not valid YAML"},
		{name: "cursor glob read as an alias", in: "---\ndescription: d\nglobs: **/*.py\nalwaysApply: false\n---\n", line: 3, problemIn: "not valid YAML"},
		{name: "tab", in: "---\na: 1\n\tb: 2\n---\n", line: 3, problemIn: "not valid YAML"},
		{name: "not a mapping", in: "---\n- a\n---\n", line: 2, problemIn: "mapping"},
		{name: "duplicate", in: "---\na: 1\nb: 2\na: 3\n---\n", line: 4, problemIn: "first on line 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fm, p := ParseFrontmatter([]byte(tc.in))
			if tc.line != 0 || tc.problemIn != "" {
				if p == nil {
					t.Fatalf("no problem; fields %v", fm.Fields)
				}
				if tc.problemIn != "" && (p.Line != tc.line || !strings.Contains(p.Message, tc.problemIn)) {
					t.Fatalf("problem %d %q, want line %d with %q", p.Line, p.Message, tc.line, tc.problemIn)
				}
				return
			}
			if p != nil {
				t.Fatalf("problem %+v", p)
			}
			if fm.Present != tc.present || string(fm.Body) != tc.body {
				t.Fatalf("present %v body %q", fm.Present, fm.Body)
			}
			var keys []string
			for _, f := range fm.Fields {
				keys = append(keys, f.Key)
			}
			if strings.Join(keys, ",") != strings.Join(tc.keys, ",") {
				t.Fatalf("keys %v, want %v", keys, tc.keys)
			}
		})
	}
}

// Field lines are the file's, not the YAML's.
func TestFrontmatterLines(t *testing.T) {
	fm, p := ParseFrontmatter([]byte("---\n# c\ndescription: d\nglobs:\n  - a\n  - b\n---\n"))
	if p != nil {
		t.Fatal(p)
	}
	if g := fm.Lookup("globs"); g == nil || g.Line != 4 || g.Value.Content[1].Line != 6 {
		t.Fatalf("globs %+v", g)
	}
}

// FuzzFrontmatter: any input either parses or is a problem with a line
// inside the file, and never panics; a parse splits the input exactly.
func FuzzFrontmatter(f *testing.F) {
	for _, s := range []string{"", "---\n---\n", "---\na: 1\n---\nbody", "---\na: &x [*x]\n---\n", "---\n- a\n---\n", "---\na: 1\n",
		"---\r\nname: x\r\ndescription: y\r\n---\r\n", "---\n<<: {a: 1}\n---\n", "---\n? [a]\n: b\n---\n",
		"---\ndescription: rule 1\nglobs: [\"src/**/*.go\", b]\n---\nbody", "---\ntools: [Read, 'Bash']\nname: x\n---\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fm, p := ParseFrontmatter(data)
		lines := bytes.Count(data, []byte("\n")) + 1
		if p != nil {
			if p.Line < 1 || p.Line > lines {
				t.Fatalf("problem line %d outside 1..%d: %s", p.Line, lines, p.Message)
			}
			return
		}
		if !fm.Present {
			if !bytes.Equal(fm.Body, data) {
				t.Fatal("body is not the input")
			}
			return
		}
		if !bytes.HasSuffix(data, fm.Body) || !bytes.Contains(data, fm.Raw) {
			t.Fatal("split lost bytes")
		}
		for _, fl := range fm.Fields {
			if fl.Line < 2 || fl.Line > lines {
				t.Fatalf("field %q on line %d outside 2..%d", fl.Key, fl.Line, lines)
			}
		}
		simpleSame(t, fm.Raw)
		// The keys split at parsing are the keys KeyTexts splits alone.
		if got, want := keyTexts(fm.Raw, fm.Fields, 2), KeyTexts(fm.Raw); !slices.Equal(got, want) {
			t.Fatalf("keys split at parsing %q, KeyTexts %q", got, want)
		}
		for _, k := range Kinds() {
			Parse(k, "x", "/x", data, []string{"claude"})
		}
	})
}

// KeyTexts gives each top-level key's lines as written.
func TestKeyTexts(t *testing.T) {
	front := "# c\ndescription: d\nallowed-tools: Bash(git diff:*), Read\nx:\n  - a\n  # b\nargument-hint: [focus area]\n"
	got := KeyTexts([]byte(front))
	want := []KeyText{{"description", "# c\ndescription: d\n"}, {"allowed-tools", "allowed-tools: Bash(git diff:*), Read\n"},
		{"x", "x:\n  - a\n  # b\n"}, {"argument-hint", "argument-hint: [focus area]\n"}}
	if len(got) != len(want) {
		t.Fatalf("got %q", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("key %d: got %q, want %q", i, got[i], want[i])
		}
	}
}

// Claude Code's documented argument-hint: [focus area] is a hint.
func TestArgumentHintFlowList(t *testing.T) {
	it, probs := Parse(KindCommand, "review", "review.md", []byte("---\nargument-hint: [focus area]\n---\nReview $ARGUMENTS\n"), nil)
	if len(probs) > 0 || it.ArgHint != "[focus area]" {
		t.Fatalf("got %+v %v", it, probs)
	}
}
