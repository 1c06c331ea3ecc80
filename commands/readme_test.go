package commands

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/spf13/afero"
)

// The README shows `--version --json` exactly as a release build prints it,
// and names the Go version go.mod asks for (issue 16 item 12).
func TestReadmeMatchesTheBinary(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)\\$ charter --version --json\n(\\{.*?\n\\})\n```").FindSubmatch(readme)
	if m == nil {
		t.Fatal("README shows no `$ charter --version --json` block")
	}
	shown := string(m[1])
	version := regexp.MustCompile(`"version": "([^"]*)"`).FindStringSubmatch(shown)
	commit := regexp.MustCompile(`"commit": "([^"]*)"`).FindStringSubmatch(shown)
	if version == nil || commit == nil {
		t.Fatalf("the README's block has no version or commit:\n%s", shown)
	}
	var out strings.Builder
	a := newApp(Build{Version: version[1], Commit: commit[1]}, strings.NewReader(""), &out, &out, nil, nil, []string{"--json"})
	if err := a.printVersion(); err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSuffix(out.String(), "\n"); got != shown {
		t.Errorf("README shows\n%s\nthe binary prints\n%s", shown, got)
	}

	gomod, err := os.ReadFile(filepath.Join("..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	goVersion := regexp.MustCompile(`(?m)^go (\d+\.\d+)`).FindSubmatch(gomod)
	if goVersion == nil || !strings.Contains(string(readme), "Go "+string(goVersion[1])+" or later") {
		t.Errorf("README does not say `Go %s or later`, the version go.mod asks for", goVersion[1])
	}
}

// Release archives carry the MIT licence, and the release runs no hook that
// could change the tree (issue 16 item 11).
func TestReleaseShipsLicence(t *testing.T) {
	licence, err := os.ReadFile(filepath.Join("..", "LICENSE"))
	if err != nil || !strings.HasPrefix(string(licence), "MIT License") {
		t.Fatalf("LICENSE is not the MIT licence: %v", err)
	}
	cfg, err := os.ReadFile(filepath.Join("..", ".goreleaser.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	files := regexp.MustCompile(`(?m)^    files:\n((?:      - .*\n)+)`).FindSubmatch(cfg)
	if files == nil || !strings.Contains(string(files[1]), "- LICENSE\n") {
		t.Errorf(".goreleaser.yaml's archives do not list LICENSE")
	}
	if strings.Contains(string(cfg), "go mod tidy") {
		t.Errorf(".goreleaser.yaml runs go mod tidy at release")
	}
}

// The README's `settings get --show-origin` lines show what the binary
// prints: its settings block is run in order in a fresh home (/home/me in
// the README), and those commands' output compared.
func TestReadmeShowOrigin(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the README shows Unix paths")
	}
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)```console\n(\\$ charter settings set rules\\.tier full\n.*?)```").FindSubmatch(readme)
	if m == nil {
		t.Fatal("README shows no settings block starting with `$ charter settings set rules.tier full`")
	}
	home := t.TempDir()
	env := []string{"HOME=" + home, "AGENTKIT_POLICY_FILE=" + filepath.Join(home, "policy.yaml")}
	checked := 0
	lines := strings.Split(strings.TrimSuffix(string(m[1]), "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		cmd, ok := strings.CutPrefix(lines[i], "$ charter ")
		if !ok {
			continue
		}
		var want []string
		for i+1 < len(lines) && !strings.HasPrefix(lines[i+1], "$ ") {
			i++
			want = append(want, strings.ReplaceAll(lines[i], "/home/me", home))
		}
		words, err := shellWords(regexp.MustCompile(`\s+#.*$`).ReplaceAllString(cmd, ""))
		if err != nil {
			t.Fatalf("README command %q: %v", cmd, err)
		}
		args := append([]string{"--no-project"}, words...)
		var out bytes.Buffer
		a := newApp(Build{Version: "t"}, strings.NewReader(""), &out, &out, env, afero.NewOsFs(), args)
		a.run(context.Background(), args)
		if !strings.Contains(cmd, "--show-origin") || !strings.HasPrefix(cmd, "settings get ") {
			continue // the other commands only set up the state
		}
		checked++
		if got := strings.TrimSuffix(out.String(), "\n"); got != strings.Join(want, "\n") {
			t.Errorf("README shows\n$ charter %s\n%s\nthe binary prints\n%s", cmd, strings.Join(want, "\n"), got)
		}
	}
	if checked == 0 {
		t.Error("the settings block has no `settings get … --show-origin` line")
	}
}
