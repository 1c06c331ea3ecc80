package agenttest

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"
)

// What every MCP check shares: the tools charter's own server lists (the
// expected set comes from charter, not from a list in the test), the
// print-config snippet a person pastes, and a world whose library holds
// one rule the tool call must bring back.

// mcpRule is the rule every MCP world holds; rules_list returns its name.
const mcpRule = "mcp-rule-2d7e"

// newMCPWorld is a world with one always-on rule in the project and an
// empty project settings file.
func newMCPWorld(t *testing.T) world {
	t.Helper()
	w := newWorld(t)
	write(t, w.project, ".charter/settings.yaml", "")
	write(t, w.project, ".charter/rules/"+mcpRule+".md", "---\ndescription: The MCP check's rule\n---\nRULE-MCP-8a4c\n")
	return w
}

// charterTools are the tool names `charter mcp` lists over stdio in w,
// sorted: the names an agent must show the model.
func charterTools(t *testing.T, w world, env []string) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, charter(t), "mcp")
	cmd.Dir, cmd.Env = w.project, env
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer in.Close()
	for _, msg := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"agenttest","version":"0"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
	} {
		if _, err := in.Write([]byte(msg + "\n")); err != nil {
			t.Fatalf("write to charter mcp: %v", err)
		}
	}
	sc := bufio.NewScanner(out)
	sc.Buffer(nil, 4<<20)
	for sc.Scan() {
		var resp struct {
			ID     int `json:"id"`
			Result struct {
				Tools []struct{ Name string } `json:"tools"`
			} `json:"result"`
		}
		if json.Unmarshal(sc.Bytes(), &resp) != nil || resp.ID != 2 {
			continue
		}
		var names []string
		for _, tool := range resp.Result.Tools {
			names = append(names, tool.Name)
		}
		if len(names) == 0 {
			t.Fatalf("charter mcp listed no tools: %s", sc.Text())
		}
		sort.Strings(names)
		return names
	}
	t.Fatalf("charter mcp never answered tools/list: %v", sc.Err())
	return nil
}

// printConfig is what `charter mcp --print-config agent` prints in w.
func printConfig(t *testing.T, w world, env []string, agent string) string {
	t.Helper()
	out, err := run(t, w.project, env, charter(t), "mcp", "--print-config", agent)
	if err != nil {
		t.Fatalf("charter mcp --print-config %s: %v\n%s", agent, err, out)
	}
	return out
}

// snippetLine is the one line of a printed snippet that starts with
// prefix (a command a person runs), or fails the test.
func snippetLine(t *testing.T, snippet, prefix string) string {
	t.Helper()
	var found []string
	for _, l := range strings.Split(snippet, "\n") {
		if strings.HasPrefix(l, prefix) {
			found = append(found, l)
		}
	}
	if len(found) != 1 {
		t.Fatalf("the snippet has %d lines starting %q, want 1:\n%s", len(found), prefix, snippet)
	}
	return found[0]
}

// agentPath is env with the agents' bin folder and charter's first on
// PATH, as a user's shell has them when pasting a snippet.
func agentPath(t *testing.T, env []string) []string {
	t.Helper()
	sep := string(os.PathListSeparator)
	return append(append([]string(nil), env...), "PATH="+filepath.Join(agentsDir(t), "node_modules", ".bin")+sep+
		filepath.Dir(charter(t))+sep+os.Getenv("PATH"))
}

// shellRun runs a printed command line with /bin/sh, as a person pasting
// it does, and fails the test unless it succeeds.
func shellRun(t *testing.T, w world, env []string, line string) string {
	t.Helper()
	out, err := run(t, w.project, agentPath(t, env), "/bin/sh", "-c", line)
	if err != nil {
		t.Fatalf("%s: %v\n%s", line, err, out)
	}
	return out
}

// toolsOnce fails unless each of charter's tools, as the agent names it
// (name(tool)), occurs exactly once in sent as a whole word, and logs the
// names that reached the model.
func toolsOnce(t *testing.T, sent string, tools []string, name func(string) string) {
	t.Helper()
	var seen []string
	for _, tool := range tools {
		re := regexp.MustCompile(`(^|[^A-Za-z0-9_])` + regexp.QuoteMeta(name(tool)) + `($|[^A-Za-z0-9_])`)
		switch n := len(re.FindAllStringIndex(sent, -1)); n {
		case 1:
			seen = append(seen, name(tool))
		default:
			t.Errorf("charter's tool %s reached the model as %s %d times, want once", tool, name(tool), n)
		}
	}
	t.Logf("%d of charter's %d tools reached the model once each: %s", len(seen), len(tools), strings.Join(seen, " "))
}
