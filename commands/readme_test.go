package commands

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
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
