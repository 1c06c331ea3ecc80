package settings

import (
	"strings"
	"testing"
)

// Issue 28 item 4: the parser's words (`found character that cannot start
// any token`) become what the user did wrong, on the line to fix.
func TestSyntaxInPlainWords(t *testing.T) {
	for _, c := range []struct {
		name, text string
		line       int
		want       string
	}{
		{"tab", "rules:\n\ttier: full\n", 2, "indented with a tab: YAML indents with spaces only"},
		{"tab after spaces", "rules:\n  tier: full\n\tlevel: 1\n", 3, "indented with a tab"},
		{"unclosed double quote", "rules:\n  tier: \"full\ngates:\n  tests: {}\n", 2, `the quote (") that opens this value is never closed`},
		{"unclosed single quote", "rules:\n  tier: 'full\n", 2, `the quote (') that opens this value is never closed`},
		{"colon in value", "rules:\n  tier: full: yes\n", 2, "a colon followed by a space inside a value: put the value in quotes"},
		{"key too deep", "rules:\n  tier: full\n    level: 2\n", 3, "a key indented deeper than the key above it"},
		{"key dedented", "rules:\n  tier: full\n gates: 1\n", 3, "a key indented differently from the keys beside it"},
		{"reserved character", "rules:\n  tier: @full\n", 2, "a value starts with @, which YAML reserves: put the value in quotes"},
		{"bare bracket", "rules:\n  tier: ]\n", 2, "starts with ], which YAML reads as punctuation"},
		{"unclosed list", "gates:\n  names: [tests, lint\n", 2, "a list opened with [ is not closed with ]"},
		{"no colon", "rules:\n  tier: full\nnope\n", 3, "a line with no colon: every setting is written `key: value`"},
		{"bad escape", "rules:\n  tier: \"C:\\dir\"\n", 2, "a backslash in double quotes"},
		{"unknown anchor", "rules:\n  tier: *t\n", 2, "*t refers to an anchor &t that is not defined"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, p := decodeFile([]byte(c.text))
			if p == nil {
				t.Fatal("parsed")
			}
			if p.Line != c.line || !strings.Contains(p.Message, c.want) {
				t.Errorf("got line %d %q, want line %d %q", p.Line, p.Message, c.line, c.want)
			}
			for _, word := range []string{"token", "node content", "scalar", "mapping values", "indicator"} {
				if strings.Contains(p.Message, word) {
					t.Errorf("%q speaks the parser's words (%s)", p.Message, word)
				}
			}
		})
	}
}

// A syntax error in a project's file names the flag that opens it.
func TestSyntaxHintNamesTheLayer(t *testing.T) {
	for file, want := range map[string]string{
		"/home/me/.agentkit/charter/settings.yaml": "`charter settings edit`",
		"/repo/.charter/settings.yaml":             "`charter settings edit --project`",
		"/repo/.charter/settings.local.yaml":       "`charter settings edit --local`",
	} {
		l := loadLayer(file, []byte("rules:\n\ttier: full\n"))
		err := fileError(l.problems, []string{file})
		if err == nil || !strings.Contains(err.Error(), file+":2: this line is indented with a tab") || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %s", file, err, want)
		}
	}
}
