package commands

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/settings"
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

// The README's first lines are true for a newcomer (issue 28 item 1): the
// two commands are exactly `go run ./cmd/charter ping` and `go test
// ./...`, and the path to a `charter` on PATH works in a clean HOME. `go
// run` is stood in for by the README's own `go install ./cmd/charter`
// (into a GOBIN of the test's, one build where `go run` would build again)
// and the installed binary's `charter ping`; `go test ./...` is not run
// from inside itself, only checked to be the documented command and what
// .ci/run runs with -race.
func TestReadmeFirstLines(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	first := regexp.MustCompile("(?s)^# charter\n\n```sh\n(.*?)```\n").FindSubmatch(readme)
	if first == nil {
		t.Fatal("the README does not open with a sh block")
	}
	var cmds []string
	for _, l := range strings.Split(strings.TrimSpace(string(first[1])), "\n") {
		cmds = append(cmds, strings.TrimSpace(regexp.MustCompile(`\s+#.*$`).ReplaceAllString(l, "")))
	}
	if strings.Join(cmds, "\n") != "go run ./cmd/charter ping\ngo test ./..." {
		t.Fatalf("the README's first commands are %q", cmds)
	}
	ci, err := os.ReadFile(filepath.Join("..", ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	// What the README says CI adds, and .ci/run does.
	for readmeSays, ciDoes := range map[string]string{
		"`go test -race -count=1 -timeout 30m ./...`": "go test -race -count=1 -timeout 30m ./...",
		"`go vet`":                 "go vet ./...",
		"`gofmt -l`":               "gofmt -l",
		"`scripts/fuzz.sh`":        "scripts/fuzz.sh",
		"`goreleaser check`":       "goreleaser check",
		"Chromium":                 "chromium",
		"MCP TypeScript SDK":       "@modelcontextprotocol/sdk",
		"PyYAML":                   "python3-yaml",
		"go install ./cmd/charter": "",
		"`CI=true .ci/run`":        "",
	} {
		if !strings.Contains(string(readme), readmeSays) {
			t.Errorf("the README does not say %s", readmeSays)
		}
		if ciDoes != "" && !strings.Contains(string(ci), ciDoes) {
			t.Errorf(".ci/run does not run %s", ciDoes)
		}
	}
	install := regexp.MustCompile("(?s)From the clone to a `charter` on your PATH:\n\n```sh\ngo install ./cmd/charter .*?\nexport PATH=\"\\$\\(go env GOPATH\\)/bin:\\$PATH\" .*?\ncharter ping\n```").Find(readme)
	if install == nil {
		t.Fatal("the README does not show go install ./cmd/charter, PATH and charter ping after the first commands")
	}

	goBin, err := exec.LookPath("go")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI=true but go is not on PATH")
		}
		t.Skip("go is not on PATH")
	}
	m := coretest.New(t)
	gobin := filepath.Join(m.Dir, "gobin")
	build := exec.Command(goBin, "install", "./cmd/charter")
	build.Dir = ".."
	build.Env = append(os.Environ(), "GOBIN="+gobin)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go install ./cmd/charter: %v\n%s", err, out)
	}
	ping := exec.Command(filepath.Join(gobin, "charter"), "ping")
	ping.Env = append(m.Environ(), "PATH="+gobin)
	ping.Dir = m.Home
	out, err := ping.CombinedOutput()
	if err != nil {
		t.Fatalf("charter ping in a clean HOME: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), filepath.Join(m.Home, ".agentkit", "charter")) {
		t.Errorf("charter ping in a clean HOME does not name the config root under it:\n%s", out)
	}
}

// The README and the HTTP API's doc show the schemaVersion the binary
// returns (issue 28 item 12).
func TestDocsSchemaVersion(t *testing.T) {
	for _, doc := range []string{"README.md", "docs/http-api.md"} {
		data, err := os.ReadFile(filepath.Join("..", doc))
		if err != nil {
			t.Fatal(err)
		}
		shown := regexp.MustCompile(`"schemaVersion": ?(\d+)`).FindAllSubmatch(data, -1)
		if len(shown) == 0 {
			t.Errorf("%s shows no schemaVersion", doc)
		}
		for _, m := range shown {
			if string(m[1]) != strconv.Itoa(settings.SchemaVersion) {
				t.Errorf("%s shows schemaVersion %s, the binary returns %d", doc, m[1], settings.SchemaVersion)
			}
		}
	}
}
