package shell

import (
	"os/exec"
	"runtime"
	"strings"
	"testing"
)

var cases = map[string]string{
	"/usr/local/bin/charter": "/usr/local/bin/charter",
	"C:/Users/ada/charter":   "C:/Users/ada/charter",
	"--gate=tests":           "--gate=tests",
	"-5":                     "-5",
	"a,b@c%d+e:f":            "a,b@c%d+e:f",
	"":                       "''",
	"a b":                    "'a b'",
	"it's":                   `'it'\''s'`,
	"$HOME":                  "'$HOME'",
	"C:\\x":                  `'C:\x'`,
	"~/x":                    "'~/x'",
	"#x":                     "'#x'",
	"a*":                     "'a*'",
	"{a,b}":                  "'{a,b}'",
	"a\nb":                   "'a\nb'",
	"é":                      "'é'",
	// In a command's first place these would be assignments.
	"X=1":         "'X=1'",
	"_a1=/bin/sh": "'_a1=/bin/sh'",
	// These would not: no name before the =.
	"1a=b":   "1a=b",
	"=x":     "=x",
	"a.b=c":  "a.b=c",
	"/x=y/z": "/x=y/z",
}

func TestQuote(t *testing.T) {
	for in, want := range cases {
		if got := Quote(in); got != want {
			t.Errorf("Quote(%q) = %s, want %s", in, got, want)
		}
	}
}

// A POSIX shell reads every quoted word back as the word, in a command's
// first place too (where an unquoted NAME=value is an assignment).
func TestQuoteThroughShell(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no POSIX shell")
	}
	var words []string
	for in := range cases {
		words = append(words, in)
	}
	script := "for w in " + Join(words) + "; do printf '%s\\0' \"$w\"; done"
	out, err := exec.Command("/bin/sh", "-c", script).Output()
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	if strings.Join(got, "|") != strings.Join(words, "|") {
		t.Errorf("the shell read %q, want %q", got, words)
	}
	for in := range cases {
		cmd := ":; " + Quote(in) + " 2>/dev/null; echo $?"
		out, err := exec.Command("/bin/sh", "-c", cmd).Output()
		if err != nil {
			t.Fatal(err)
		}
		if strings.TrimSpace(string(out)) != "127" && in != "" { // taken as a command, not found
			t.Errorf("%q in first place ran as %q", in, out)
		}
	}
}

func FuzzQuote(f *testing.F) {
	for in := range cases {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q := Quote(s)
		if q == s {
			if s == "" || strings.ContainsFunc(s, special) || assignment(s) {
				t.Fatalf("%q left unquoted", s)
			}
			return
		}
		inner, ok := strings.CutPrefix(q, "'")
		if inner, ok = strings.CutSuffix(inner, "'"); !ok || strings.ReplaceAll(inner, `'\''`, "'") != s {
			t.Fatalf("Quote(%q) = %s does not read back", s, q)
		}
	})
}
