package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentkit/charter/core/content"
	"github.com/agentkit/charter/core/session"
)

// cancelledList is the Local backend whose ContentList waits for the
// request's cancellation before it loads: the client cancels once the
// call has arrived, so the load always runs under a cancelled ctx.
type cancelledList struct {
	*Local
	arrived chan struct{}
	loaded  chan error
}

func (b cancelledList) ContentList(ctx context.Context, dir string, k content.Kind, path string) ([]session.ContentItem, error) {
	close(b.arrived)
	<-ctx.Done()
	items, err := b.Local.ContentList(ctx, dir, k, path)
	if err == nil {
		err = fmt.Errorf("loaded %d items under a cancelled request", len(items))
	}
	b.loaded <- err
	return items, err
}

// An MCP rules_list call the client cancels (notifications/cancelled)
// while a big library is to load stops the load with the cancellation;
// uncancelled, the same call lists every rule.
func TestRulesListCancelled(t *testing.T) {
	e := newEnv(t)
	for i := range 2000 {
		e.write(t, filepath.Join(e.scope.Path, "rules", fmt.Sprintf("r%04d.md", i)), fmt.Sprintf("---\ndescription: rule %d\n---\nDo %d.\n", i, i))
	}
	var all ItemList
	structured(t, call(t, connect(t, e.server(), newClient(noRoots), protocols[0]), "rules_list", map[string]any{}), &all)
	if all.Total != 2000 {
		t.Fatalf("live rules_list: %d items, want 2000", all.Total)
	}

	for _, proto := range protocols {
		t.Run(protoName(proto), func(t *testing.T) {
			l := e.backend()
			l.Sys = l.Sys.ReadOnly("the MCP server")
			b := cancelledList{Local: l, arrived: make(chan struct{}), loaded: make(chan error, 1)}
			srv := New(b, Options{Version: "1.2.3-test", Getwd: e.sys.Getwd, Paths: e.sys.Paths, Message: e.sys.ErrorMessage})
			cs := connect(t, srv, newClient(noRoots), proto)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			called := make(chan error, 1)
			go func() {
				_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "rules_list", Arguments: map[string]any{}})
				called <- err
			}()
			<-b.arrived
			cancel()
			if err := <-called; !errors.Is(err, context.Canceled) {
				t.Errorf("cancelled call returned %v", err)
			}
			if err := <-b.loaded; !errors.Is(err, context.Canceled) {
				t.Errorf("the load under the cancelled request: %v; want context.Canceled", err)
			}
		})
	}
}
