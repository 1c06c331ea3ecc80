package commands

import (
	"slices"
	"testing"
)

func TestShellWords(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
		err  bool
	}{
		{"vim", []string{"vim"}, false},
		{"  code --wait  ", []string{"code", "--wait"}, false},
		{`"/Applications/Sublime Text.app/subl" -w`, []string{"/Applications/Sublime Text.app/subl", "-w"}, false},
		{`'C:\Program Files\Notepad++\notepad++.exe' -multiInst`, []string{`C:\Program Files\Notepad++\notepad++.exe`, "-multiInst"}, false},
		{`emacs\ client -t`, []string{"emacs client", "-t"}, false},
		{`vi "a \"b\" \\ \$c \x"`, []string{"vi", `a "b" \ $c \x`}, false},
		{`a''b ""`, []string{"ab", ""}, false},
		{`vi 'open`, nil, true},
		{`vi "open`, nil, true},
	} {
		got, err := shellWords(tc.in)
		if (err != nil) != tc.err || !slices.Equal(got, tc.want) {
			t.Errorf("shellWords(%q) = %q, %v; want %q, error %v", tc.in, got, err, tc.want, tc.err)
		}
	}
}

func TestStripProblems(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"rules:\n  tier: full\n", "rules:\n  tier: full\n"},
		{"# charter: a\n# charter: b\r\n# mine\nrules: {}\n", "# mine\nrules: {}\n"},
		{"# charter: only\n", ""},
		{"# charter: no newline", ""},
		{"# mine\n# charter: kept below the user's own lines\n", "# mine\n# charter: kept below the user's own lines\n"},
	} {
		if got := string(stripProblems([]byte(tc.in))); got != tc.want {
			t.Errorf("stripProblems(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
