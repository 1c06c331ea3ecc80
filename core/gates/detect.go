package gates

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/fsys"
	"github.com/agentkit/charter/core/lazy"
	"github.com/agentkit/charter/core/settings"
	"github.com/agentkit/charter/helpers/shell"
)

// Suggestion is a test command charter guessed from a project's files.
type Suggestion struct {
	Command string `json:"command"`
	From    string `json:"from"` // the file that gave it away
	// Set is the exact command line that configures it.
	Set string `json:"set"`
}

// npmNoTest is the test script `npm init` writes: no tests at all.
const npmNoTest = `echo "Error: no test specified" && exit 1`

var makeTest = lazy.Regexp{Expr: `^test\s*:`}

// DetectTests guesses the command that runs dir's tests from its files, in
// this order: go.mod, package.json with a test script, Cargo.toml,
// pyproject.toml or pytest.ini, a Makefile with a test target. The files
// are the repository's: read capped and only inside dir. ok is false when
// none tells.
func DetectTests(sys *core.System, dir string) (s Suggestion, ok bool) {
	if dir == "" {
		return Suggestion{}, false
	}
	read := func(name string) []byte {
		data, err := sys.ReadWithin(dir, sys.Paths.Join(dir, name), fsys.KindManifest)
		if err != nil {
			return nil
		}
		return data
	}
	found := func(name, command string) (Suggestion, bool) {
		return Suggestion{Command: command, From: name,
			Set: "charter settings set --project " + settings.KeyGatesTestsCommand + " " + shell.Quote(command)}, true
	}
	if read("go.mod") != nil {
		return found("go.mod", "go test ./...")
	}
	if data := read("package.json"); data != nil {
		var pkg struct {
			Scripts map[string]any `json:"scripts"`
		}
		if json.Unmarshal(data, &pkg) == nil {
			if t, _ := pkg.Scripts["test"].(string); t != "" && t != npmNoTest {
				return found("package.json", "npm test")
			}
		}
	}
	if read("Cargo.toml") != nil {
		return found("Cargo.toml", "cargo test")
	}
	for _, name := range []string{"pyproject.toml", "pytest.ini"} {
		if read(name) != nil {
			return found(name, "pytest")
		}
	}
	for _, name := range []string{"Makefile", "makefile", "GNUmakefile"} {
		if data := read(name); data != nil {
			sc := bufio.NewScanner(bytes.NewReader(data))
			sc.Buffer(nil, 1<<20)
			for sc.Scan() {
				if makeTest.Get().MatchString(sc.Text()) {
					return found(name, "make test")
				}
			}
		}
	}
	return Suggestion{}, false
}

// skipped is a required gate without a command: listed, with how to
// configure it (the suggested test command, when the project gives one away).
func (c Config) skipped(name string) Result {
	k := commandKeys.Get()[name]
	msg := fmt.Sprintf("%s is required but no %s command is configured (%s is empty), so it was not checked; configure it with: charter settings set --project %s %s",
		name, gateNoun.Get()[name], k.key, k.key, shell.Quote(k.example))
	if name == Tests && c.Suggested != nil {
		msg = fmt.Sprintf("tests is required but no test command is configured (%s is empty), so the tests were not run; %s suggests: %s",
			k.key, c.Suggested.From, c.Suggested.Set)
	}
	if name == Coverage {
		msg += fmt.Sprintf(" and charter settings set --project %s cover.out", reportKey)
	}
	return Result{Name: name, Status: StatusSkipped, OutputTail: []string{}, Message: msg}
}

// gateNoun names a gate's command in a message.
var gateNoun = lazy.Value[map[string]string]{Make: func() map[string]string {
	return map[string]string{Tests: "test", Lint: "lint", Coverage: "coverage"}
}}

// Unconfigured is a required gate without a command: a run skips it, so it
// passes by doing nothing. The tests gate carries the command the project
// suggests (DetectTests), when it suggests one.
type Unconfigured struct {
	Gate      string      `json:"gate"`
	Key       string      `json:"key"` // the empty setting
	Suggested *Suggestion `json:"suggested"`
}

// Unconfigured lists the required gates that have no command, in run
// order. An untrusted gate is not among them: its command is the project's.
func (c Config) Unconfigured() []Unconfigured {
	out := []Unconfigured{}
	for _, name := range Names() {
		command, required := c.spec(name)
		if !required || c.untrusted(name) || strings.TrimSpace(command) != "" {
			continue
		}
		u := Unconfigured{Gate: name, Key: commandKeys.Get()[name].key}
		if name == Tests {
			u.Suggested = c.Suggested
		}
		out = append(out, u)
	}
	return out
}
