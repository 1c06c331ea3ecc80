package mcpserver

import (
	"net/url"
	"path/filepath"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentkit/charter/core/fsys"
	"github.com/agentkit/charter/core/session"
)

func fileURI(path string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}

func workDirOf(t *testing.T, cs *mcp.ClientSession) string {
	t.Helper()
	var st session.StatusDoc
	structured(t, call(t, cs, "status", nil), &st)
	return st.WorkDir
}

func TestRoots(t *testing.T) {
	for _, proto := range protocols {
		t.Run(protoName(proto), func(t *testing.T) {
			e := newEnv(t)
			srv := e.server()
			proj, other := filepath.Join(t.TempDir(), "my project"), t.TempDir()

			c := newClient(nil)
			c.AddRoots(&mcp.Root{URI: fileURI(proj)}, &mcp.Root{URI: fileURI(other)})
			cs := connect(t, srv, c, proto)
			if got := workDirOf(t, cs); got != proj {
				t.Errorf("with roots: workDir %q, want the first root %q", got, proj)
			}
			// Resources see the same directory.
			readResource(t, cs, URIGovernance)

			// The client's roots change: the next call follows them.
			c.RemoveRoots(fileURI(proj))
			if got := workDirOf(t, cs); got != other {
				t.Errorf("after the roots changed: workDir %q, want %q", got, other)
			}

			// A client with the capability and no roots, or with only a
			// non-file root, falls back to the working directory.
			empty := newClient(nil)
			if got := workDirOf(t, connect(t, srv, empty, proto)); got != e.wd {
				t.Errorf("no roots: workDir %q, want %q", got, e.wd)
			}
			web := newClient(nil)
			web.AddRoots(&mcp.Root{URI: "https://example.com/repo"})
			if got := workDirOf(t, connect(t, srv, web, proto)); got != e.wd {
				t.Errorf("a non-file root: workDir %q, want %q", got, e.wd)
			}
			// And one without the capability never gets asked.
			if got := workDirOf(t, connect(t, srv, newClient(noRoots), proto)); got != e.wd {
				t.Errorf("no roots capability: workDir %q, want %q", got, e.wd)
			}
		})
	}
}

func TestFileURIPath(t *testing.T) {
	unix, win := fsys.PathStyle{}, fsys.PathStyle{Windows: true}
	for _, tc := range []struct {
		uri  string
		ps   fsys.PathStyle
		want string
		ok   bool
	}{
		{"file:///home/me/repo", unix, "/home/me/repo", true},
		{"file:///home/me/my%20repo/", unix, "/home/me/my repo", true},
		{"file://localhost/srv/x", unix, "/srv/x", true},
		{"FILE:///a/../b", unix, "/b", true},
		{"file://other/srv/x", unix, "", false},
		{"file:relative/x", unix, "", false},
		{"https://example.com/x", unix, "", false},
		{"not a uri%", unix, "", false},
		{"file:///C:/Users/me/repo", win, `C:\Users\me\repo`, true},
		{"file:///c%3A/x", win, `c:\x`, true},
		{"file://server/share/repo", win, `\\server\share\repo`, true},
		{"file:///no/drive", win, "", false},
	} {
		got, ok := fileURIPath(tc.uri, tc.ps)
		if got != tc.want || ok != tc.ok {
			t.Errorf("fileURIPath(%q, windows=%v) = %q, %v; want %q, %v", tc.uri, tc.ps.Windows, got, ok, tc.want, tc.ok)
		}
	}
}

// The capabilities kept from the last call are the SDK's reading of each
// call's own: a call that announces other ones gets those.
func TestCapsOfFollowsEachCall(t *testing.T) {
	s := &Server{}
	caps := func(c map[string]any) *mcp.ClientCapabilities {
		req := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Meta: mcp.Meta{
			mcp.MetaKeyProtocolVersion: "2026-07-28", mcp.MetaKeyClientCapabilities: c}}}
		return s.capsOf(req.Params.GetMeta(), req.ClientCapabilities)
	}
	withRoots := map[string]any{"roots": map[string]any{"listChanged": true}}
	for i, c := range []map[string]any{withRoots, withRoots, {}, withRoots} {
		got := caps(c)
		if has := got != nil && got.RootsV2 != nil && got.RootsV2.ListChanged; has != (len(c) > 0) {
			t.Errorf("call %d (%v): roots %+v", i, c, got)
		}
	}
	if got := s.capsOf(nil, func() *mcp.ClientCapabilities { return nil }); got != nil {
		t.Errorf("no _meta: %+v, want the session's (nil)", got)
	}
}
