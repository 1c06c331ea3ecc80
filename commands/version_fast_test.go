package commands

import (
	"strings"
	"testing"
)

// --version takes the fast path exactly when the whole grammar would only
// print the version.
func TestVersionOnly(t *testing.T) {
	for args, want := range map[string]bool{
		"--version": true, "-v": true, "--version --json": true, "--json -v": true, "--version --json=true": true,
		"": false, "--json": false, "version": false, "--version -v": false, "--version --json --json": false,
		"--version ping": false, "ping --version": false, "--json=false --version": false, "--version --help": false,
	} {
		if got := versionOnly(splitArgs(args)); got != want {
			t.Errorf("%q: %v, want %v", args, got, want)
		}
	}
}

// The fast path prints what the grammar prints for `charter version`, as
// text and as JSON, and exits 0.
func TestVersionFastSameOutput(t *testing.T) {
	home := t.TempDir()
	text := runCharter(t, home, "", false, "version")
	doc := runCharter(t, home, "", false, "version", "--json")
	if text.code != 0 || doc.code != 0 || text.stdout == "" || doc.stdout == "" {
		t.Fatalf("version: %+v %+v", text, doc)
	}
	for _, c := range []struct {
		args []string
		want run
	}{
		{[]string{"--version"}, text}, {[]string{"-v"}, text},
		{[]string{"--version", "--json"}, doc}, {[]string{"--json", "-v"}, doc},
	} {
		if !versionOnly(c.args) {
			t.Fatalf("%v does not take the fast path", c.args)
		}
		if got := runCharter(t, home, "", false, c.args...); got != c.want {
			t.Errorf("%v: %+v, want %+v", c.args, got, c.want)
		}
	}
}

func splitArgs(s string) []string {
	var out []string
	for f := range strings.FieldsSeq(s) {
		out = append(out, f)
	}
	return out
}
