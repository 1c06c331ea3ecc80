package archtest

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

// processReads are the functions, by package, that read or change the
// process's environment or working directory, directly or inside (a
// relative path made absolute, a PATH search, a home or temp folder).
var processReads = map[string]map[string]bool{
	"os": {"Getenv": true, "LookupEnv": true, "Environ": true, "Setenv": true, "Unsetenv": true, "Clearenv": true,
		"ExpandEnv": true, "Getwd": true, "Chdir": true, "UserHomeDir": true, "UserCacheDir": true,
		"UserConfigDir": true, "TempDir": true},
	"syscall":       {"Getenv": true, "Environ": true, "Setenv": true, "Getwd": true, "Chdir": true},
	"path/filepath": {"Abs": true},
	"os/exec":       {"LookPath": true},
}

// instead is what a package's reads are asked of.
var instead = map[string]string{
	"os": "core.System's Getenv, Getwd, Vars", "syscall": "core.System's Getenv, Getwd, Vars",
	"path/filepath": "join to core.System's Getwd", "os/exec": "core.System's LookPath",
}

// processEdge is where the process is read: the System's constructor takes
// what cmd/charter hands it, fsys is the OS edge, and the test kits build
// worlds of their own.
func processEdge(rel string) bool {
	for _, p := range []string{"core/fsys/", "core/coretest/", "core/agenttest/", "core/internal/", "helpers/env/"} {
		if strings.HasPrefix(rel, p) {
			return true
		}
	}
	return false
}

// TestNoProcessReadsBelowSkins: below the skins nothing reads the process
// environment or working directory itself (issue 34); it asks the System
// it was given, so a host's config root, a test's world and a request's
// project are what the code sees.
func TestNoProcessReadsBelowSkins(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	fset := token.NewFileSet()
	for _, top := range []string{"core", "helpers"} {
		err := filepath.WalkDir(filepath.Join(root, top), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			rel, _ := filepath.Rel(root, path)
			rel = filepath.ToSlash(rel)
			if processEdge(rel) {
				return nil
			}
			f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			names := map[string]string{} // local name → import path
			for _, im := range f.Imports {
				p, _ := strconv.Unquote(im.Path.Value)
				if processReads[p] == nil {
					continue
				}
				name := p[strings.LastIndex(p, "/")+1:]
				if im.Name != nil {
					name = im.Name.Name
				}
				names[name] = p
			}
			if len(names) == 0 {
				return nil
			}
			ast.Inspect(f, func(n ast.Node) bool {
				sel, ok := n.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if x, ok := sel.X.(*ast.Ident); ok && processReads[names[x.Name]][sel.Sel.Name] {
					t.Errorf("%s: %s.%s reads the process; take it from the System (%s)", fset.Position(sel.Pos()), x.Name, sel.Sel.Name, instead[names[x.Name]])
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// ctxDoc is docs/architecture.md's section on cancellation and on what
// below the skins may read of the process.
func ctxDoc() string {
	return "\n## Cancellation and the process\n\n" +
		"Every method of `core/session` that reads or writes more than the session's own resolution takes the `context.Context` of its request and hands it down. " +
		"The CLI's is cancelled by the first SIGINT or SIGTERM (`commands/signals.go`), the HTTP server's is the request's (`r.Context()`: a client that hangs up cancels it), the MCP server's is the tool call's (`notifications/cancelled` cancels it). " +
		"Below the session, every loop over many files (content loading, import's scan, the loaded records, doctor's checks, apply's plan and run) checks `ctx.Err()` between two files and returns it before anything more is written; git for shared sources runs under `exec.CommandContext`, and a gate's process group is ended. " +
		"The resolution itself (scope, project, policy, the settings layers: a handful of small files, read once per session) takes no `ctx`: a workflow checks it before and hands it to what follows.\n\n" +
		"No package below the skins reads the process: its environment, working directory, PATH search, a relative path made absolute, the home or temp folder all come from the `core.System` it was given (`Getenv`, `Vars`, `Getwd`, `LookPath`). " +
		"A test (`process_test.go`) fails on `os.Getenv`, `os.Getwd`, `filepath.Abs`, `exec.LookPath` and their kin anywhere in `core` or `helpers` outside the OS edge (`core/fsys`, `helpers/env`) and the test kits.\n"
}
