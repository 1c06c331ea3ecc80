// Package archtest holds docs/architecture.md to the code: the package
// graph is generated from the imports of every non-test Go file.
package archtest

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/agentkit/charter/"

var update = flag.Bool("update-arch", false, "rewrite docs/architecture.md from the code")

// layers, top down: a package belongs to the first whose test matches.
var layers = []struct {
	name, says string
	is         func(pkg string) bool
}{
	{"entry", "the binary: flags to `commands.Main`, nothing else", func(p string) bool { return strings.HasPrefix(p, "cmd/") }},
	{"skins", "parse a request, call the handler layer, render its document: the CLI, the HTTP server with the hub, the MCP server",
		func(p string) bool { return p == "commands" || p == "server" || p == "mcpserver" }},
	{"handlers", "one method per workflow, each owning its whole sequence and returning one document",
		func(p string) bool { return p == "core/session" }},
	{"domain", "what charter knows and decides: settings and layers, the agent table, content, projection and placement, gates, import, sources, doctor's checks",
		func(p string) bool { return !ground(p) }},
	{"ground", "the one edge to the operating system and the leaf helpers every layer may use", ground},
}

func ground(p string) bool {
	return p == "core/fsys" || p == "core/errcode" || p == "core/inert" || strings.HasPrefix(p, "helpers/")
}

// eachSource parses every non-test Go file of the module below root with
// mode and hands it to fn with its slash-separated path from root.
func eachSource(t *testing.T, root string, mode parser.Mode, fn func(rel string, f *ast.File)) {
	t.Helper()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, mode)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		fn(filepath.ToSlash(rel), f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// graph is each package of the module (directory, slash-separated) with
// the module packages its non-test files import.
func graph(t *testing.T, root string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	eachSource(t, root, parser.ImportsOnly, func(rel string, f *ast.File) {
		pkg := path.Dir(rel)
		if _, ok := out[pkg]; !ok {
			out[pkg] = []string{}
		}
		for _, imp := range f.Imports {
			ip, _ := strconv.Unquote(imp.Path.Value)
			if dep, ok := strings.CutPrefix(ip, module); ok && !slices.Contains(out[pkg], dep) {
				out[pkg] = append(out[pkg], dep)
			}
		}
	})
	for p := range out {
		slices.Sort(out[p])
	}
	return out
}

func layerOf(pkg string) int {
	for i, l := range layers {
		if l.is(pkg) {
			return i
		}
	}
	return len(layers) - 1
}

// render is docs/architecture.md.
func render(g map[string][]string) string {
	var b strings.Builder
	b.WriteString("# Architecture\n\n<!-- Generated from the imports of the code by scripts/gen-architecture.sh; a test holds it current. -->\n\n")
	b.WriteString("The packages of charter in layers, top down; a package imports only packages of its own layer or below.\n\n")
	pkgs := make([]string, 0, len(g))
	for p := range g {
		pkgs = append(pkgs, p)
	}
	slices.SortFunc(pkgs, func(a, b string) int {
		if la, lb := layerOf(a), layerOf(b); la != lb {
			return la - lb
		}
		return strings.Compare(a, b)
	})
	b.WriteString("```mermaid\nflowchart TD\n")
	for _, p := range pkgs {
		for _, d := range g[p] {
			fmt.Fprintf(&b, "  %s --> %s\n", node(p), node(d))
		}
	}
	b.WriteString("```\n")
	cur := -1
	for _, p := range pkgs {
		if l := layerOf(p); l != cur {
			cur = l
			fmt.Fprintf(&b, "\n## %s\n\n%s.\n\n", layers[l].name, upper(layers[l].says))
		}
		deps := "nothing of charter's"
		if len(g[p]) > 0 {
			deps = "`" + strings.Join(g[p], "`, `") + "`"
		}
		fmt.Fprintf(&b, "- `%s` imports %s\n", p, deps)
	}
	b.WriteString("\n## Where new code goes\n\n")
	b.WriteString("Top down: the skins (`commands`, `server`, `mcpserver`) on top, `core/session` under them, the domain packages below, `core/fsys` and the helpers at the ground.\n\n")
	b.WriteString("- A new command, endpoint or MCP tool is a skin: it parses the request, calls one method of `core/session`, and renders the document that method returns; it sequences no workflow of its own.\n")
	b.WriteString("- A new workflow is one method of `core/session` that owns its whole sequence, built on the domain packages.\n")
	b.WriteString("- A fact about an agent is one entry of the agent table (`core/agents/table*.go`: the table as data, which knows nothing of a run), never a path or a name in another package (a test fails on that).\n")
	b.WriteString("- Every read and write of a file goes through `core/fsys` (confined, guarded, atomic): no package below the skins opens files on its own.\n")
	b.WriteString("- What one skin alone owns stays in that skin: the running server's discovery and token files are the HTTP skin's (`server/announce.go`). Where a session method needs it (`ping --server`, doctor's server line), `core/session` declares a small interface (`session.Hub`) that the skin implements and the command line hands in (`Options.Hub`).\n")
	b.WriteString("- A skin imports `core/session`, another skin and the ground (`core/fsys`, `core/errcode`, `core/inert`, `helpers/*`); of a domain package it uses only the types it renders (their fields and methods) and constants, never a function or a package variable: a test type-checks the skins and fails on each such use, and on a domain import used for none of its types.\n")
	b.WriteString("- Which companion profile the environment names, where each agent's directory is, the config root and scope a run uses, and the write guard that refuses a write through the companion's share links are `core/profile` (`ResolveScope`, `ResolveRoot`, `Active`, `AgentDir`, `Guard`). The root `core` package is the injected environment (`System`) and takes its guard in: `session.NewSystem` (and `core/coretest` in tests) hands `core.NewSystem` `profile.Guard`, so no System writes unguarded and `core` imports no domain package.\n")
	b.WriteString("- Code that reads or writes files, takes locks or walks paths goes into `core/fsys`; code that decides what charter does goes into the domain package it is about, never into the root `core` package, which holds the injected environment (`System`).\n")
	b.WriteString("- The root `core` package opens no file. Two of its error helpers stat one path through the System's file system (`Fs`, the same one `core/fsys` is handed), and only once a write or read has already failed: `NotWritable` finds the nearest existing directory that refused, `ErrorMessage` the file in the way of a directory. They stay in `core` because they build `core`'s coded errors (`NotWritableError`) from its `System`, and `core/fsys` sits below `core` and knows neither; `Private` (`stamp.go`) only judges a `FileInfo` it is given.\n")
	b.WriteString(ctxDoc())
	return b.String()
}

func node(p string) string { return strings.NewReplacer("/", "_", "-", "_").Replace(p) + "[" + p + "]" }

func upper(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

// TestArchitectureDoc: docs/architecture.md is the graph of the code.
func TestArchitectureDoc(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	want := render(graph(t, root))
	path := filepath.Join(root, "docs", "architecture.md")
	if *update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := os.ReadFile(path); err != nil || string(got) != want {
		t.Fatalf("docs/architecture.md is not the package graph of the code (%v): run scripts/gen-architecture.sh", err)
	}
}

// TestNoImportUpward: no package imports one of a layer above it (the
// ground imports no domain package; the domain no handler or skin).
func TestNoImportUpward(t *testing.T) {
	for p, deps := range graph(t, filepath.Join("..", "..", "..")) {
		for _, d := range deps {
			if layerOf(d) < layerOf(p) {
				t.Errorf("%s (%s) imports %s (%s), a layer above it", p, layers[layerOf(p)].name, d, layers[layerOf(d)].name)
			}
		}
	}
}
