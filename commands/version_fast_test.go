package commands

import (
	"bytes"
	"context"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/spf13/afero"
)

// --version takes the fast path exactly when the whole grammar would only
// print the version.
func TestVersionOnly(t *testing.T) {
	for args, want := range map[string]bool{
		"--version": true, "-v": true, "--version --json": true, "--json -v": true, "--version --json=true": true,
		"version": true, "version --json": true, "": false, "--json": false, "version -v": false, "version version": false, "--version -v": false, "--version --json --json": false,
		"--version ping": false, "ping --version": false, "--json=false --version": false, "--version --help": false,
	} {
		if got := versionOnly(splitArgs(args)); got != want {
			t.Errorf("%q: %v, want %v", args, got, want)
		}
	}
}

// The fast path prints what the grammar prints for `charter version`, as
// text and as JSON, and exits 0 (--no-project keeps the grammar's run off
// the fast path).
func TestVersionFastSameOutput(t *testing.T) {
	home := t.TempDir()
	text := runCharter(t, home, "", false, "--no-project", "version")
	doc := runCharter(t, home, "", false, "--no-project", "version", "--json")
	if text.code != 0 || doc.code != 0 || text.stdout == "" || doc.stdout == "" {
		t.Fatalf("version: %+v %+v", text, doc)
	}
	for _, c := range []struct {
		args []string
		want run
	}{
		{[]string{"--version"}, text}, {[]string{"-v"}, text},
		{[]string{"--version", "--json"}, doc}, {[]string{"--json", "-v"}, doc},
		{[]string{"version"}, text}, {[]string{"version", "--json"}, doc},
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

// A build from source says dev, as the README does; the pseudo-version Go
// recorded for `go install …@latest` goes beside it, a release tag is the version.
func TestVersionOfGoInstall(t *testing.T) {
	for mod, want := range map[string]Build{
		"":                                     {Version: "dev", Commit: "unknown"},
		"(devel)":                              {Version: "dev", Commit: "unknown"},
		"v1.4.0":                               {Version: "v1.4.0", Commit: "unknown"},
		"v1.4.0-rc.1":                          {Version: "v1.4.0-rc.1", Commit: "unknown"},
		"v0.0.0-20261127093000-abcdef123456":   {Version: "dev", Commit: "unknown", Module: "v0.0.0-20261127093000-abcdef123456"},
		"v1.4.1-0.20261127093000-abcdef123456": {Version: "dev", Commit: "unknown", Module: "v1.4.1-0.20261127093000-abcdef123456"},
		"v1.5.0-rc.1.0.20261127093000-abcdef123456":  {Version: "dev", Commit: "unknown", Module: "v1.5.0-rc.1.0.20261127093000-abcdef123456"},
		"v1.4.1-0.20261127093000-abcdef123456+dirty": {Version: "dev", Commit: "unknown", Module: "v1.4.1-0.20261127093000-abcdef123456+dirty"},
	} {
		info := &debug.BuildInfo{Main: debug.Module{Version: mod}}
		if got := (Build{}).resolvedFrom(info); got != want {
			t.Errorf("%q: %+v, want %+v", mod, got, want)
		}
	}
	if got := (Build{Version: "1.2.3"}).resolvedFrom(&debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261127093000-abcdef123456"}}); got.Version != "1.2.3" || got.Module != "" {
		t.Errorf("the release build's version must win: %+v", got)
	}

	var out, errb bytes.Buffer
	args := []string{"--version"}
	b := Build{Version: "dev", Commit: "abc", Module: "v0.0.0-20261127093000-abcdef123456"}
	newApp(b, strings.NewReader(""), &out, &errb, nil, afero.NewMemMapFs(), args).run(context.Background(), args)
	if got := out.String(); got != "charter dev (v0.0.0-20261127093000-abcdef123456)\n" {
		t.Errorf("--version: %q", got)
	}
	out.Reset()
	args = []string{"--version", "--json"}
	newApp(b, strings.NewReader(""), &out, &errb, nil, afero.NewMemMapFs(), args).run(context.Background(), args)
	if !strings.Contains(out.String(), `"version": "dev"`) || !strings.Contains(out.String(), `"module": "v0.0.0-20261127093000-abcdef123456"`) {
		t.Errorf("--version --json: %s", out.String())
	}
}
