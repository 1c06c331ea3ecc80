package mcpserver

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentkit/charter/core/fsys"
)

// rules_list at 1,000 rules through the whole MCP stack, in-process, all
// calls in one session: what `charter mcp` adds is the pipe.
func BenchmarkRulesListInMemory(b *testing.B) {
	e := newEnv(b)
	for i := range 1000 {
		globs := ""
		if i%3 == 0 {
			globs = fmt.Sprintf("globs: [\"src/m%d/**/*.go\"]\n", i)
		}
		e.write(b, filepath.Join(e.scope.Path, "rules", fmt.Sprintf("rule-%04d.md", i)),
			fmt.Sprintf("---\ndescription: Rule %d of the library, one line.\n%s---\nDo thing %d the way the team agreed.\n", i, globs, i))
	}
	for _, watched := range []bool{false, true} {
		name := "stamps"
		if watched {
			name = "watched"
		}
		b.Run(name, func(b *testing.B) {
			be := e.backend()
			if watched {
				be.Watch = fsys.NewDirWatch(e.sys.Fs)
				defer be.Watch.Close()
			}
			be.cache().Now = func() time.Time { return time.Now().Add(time.Hour) } // the files were just written
			benchRulesList(b, be, e)
		})
	}
}

// benchRulesList times rules_list's first page in one session.
func benchRulesList(b *testing.B, be *Local, e *env) {
	srv := New(be, Options{Version: "1.2.3-test", Getwd: e.sys.Getwd, Paths: e.sys.Paths, Message: e.sys.ErrorMessage})
	cs := connect(b, srv, newClient(noRoots), "")
	params := &mcp.CallToolParams{Name: "rules_list", Arguments: map[string]any{}}
	took := make([]time.Duration, 0, b.N)
	for b.Loop() {
		start := time.Now()
		res, err := cs.CallTool(context.Background(), params)
		if err != nil || res.IsError {
			b.Fatal(err, res)
		}
		took = append(took, time.Since(start))
	}
	reportMedian(b, took)
}
