package agents

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// agentPaths are the places of the table that name one agent: its
// project folders and files (".claude/rules", ".github/copilot-instructions.md").
func agentPaths() map[string]string {
	out := map[string]string{}
	add := func(agent, p string) {
		p = strings.TrimSuffix(p, "/")
		if strings.Contains(p, "/") && strings.HasPrefix(p, ".") && !strings.HasPrefix(p, ".agents/") {
			out[p] = agent
		}
	}
	for _, a := range Default() {
		for _, p := range []string{a.ProjectFile, a.Private, a.Via} {
			add(a.Name, p)
		}
		for _, k := range []string{"rule", "skill", "command", "subagent"} {
			add(a.Name, a.Project.Of(k).Dir)
		}
		for _, r := range append(a.Retired, a.ImportAlso...) {
			if r.Level == "project" {
				add(a.Name, r.Dir)
			}
		}
	}
	return out
}

// Every fact about an agent lives in the table (SPEC §17): no Go source
// outside it names an agent's project folder or file. Hook and MCP files
// (.claude/settings.json, .codex/hooks.json) are the agents' settings
// files, not places of content, and are not in this set.
func TestNoAgentPathOutsideTable(t *testing.T) {
	paths := agentPaths()
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() && (name == ".git" || name == "testdata" || name == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") || (strings.HasPrefix(name, "table") && filepath.Base(filepath.Dir(p)) == "agents") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				return true
			}
			for path, agent := range paths {
				if strings.Contains(s, path) {
					t.Errorf("%s names %s's %s: take it from the agent table", p, agent, path)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
