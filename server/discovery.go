package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"strings"
	"time"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/fsys"
	"github.com/agentkit/charter/core/session"
)

// askTimeout bounds a client's whole request to a server.
const askTimeout = 2 * time.Second

// NoServerError means no live server runs for a scope.
type NoServerError struct {
	Path   string      // the discovery file
	Reason string      // why it does not count; empty when there is none
	Others []Elsewhere // live servers of other scopes, which may be the one meant
}

func (e *NoServerError) Error() string {
	var msg string
	if e.Reason == "" {
		msg = fmt.Sprintf("no charter server runs for this scope (no %s): start one with `charter serve`", e.Path)
	} else {
		msg = fmt.Sprintf("no charter server runs for this scope: %s is stale (%s): start one with `charter serve`", e.Path, e.Reason)
	}
	for _, o := range e.Others {
		msg += fmt.Sprintf("; but a server runs for %s (%s) at %s (pid %d): %s to reach it",
			o.Scope, o.Dir, o.Discovery.BaseURL(), o.Discovery.PID, o.Hint)
	}
	return msg
}

// profileSetting says how a shell selects a companion profile.
func profileSetting(sys *core.System, provider, profile string) string {
	dir := "<agent-switch home>"
	if home, err := session.CompanionHome(sys); err == nil {
		dir = home
	}
	dir = sys.Paths.Join(dir, provider, profile, core.CompanionProfileConfig)
	// The agent table names each provider's variable (SPEC §5).
	for _, a := range sys.AgentTable.All() {
		if a.Provider == provider && a.DirVar != "" {
			return a.DirVar + "=" + dir
		}
	}
	if provider == core.CompanionHomeProvider {
		return "HOME=" + dir
	}
	return "the profile's *_CONFIG_DIR set to " + dir
}

// Elsewhere is a live server of another scope under the default root.
type Elsewhere struct {
	Scope     string // "the global scope", "profile claude/work"
	Dir       string // its scope directory
	Hint      string // how to run charter in that scope
	Discovery Discovery
}

// OtherServers finds live servers of scopes other than sc under the
// default root: the global scope and every profile's. A server started
// in another shell, with another profile active or without the
// --config-root given here, is found this way.
func OtherServers(sys *core.System, sc core.Scope) []Elsewhere {
	root, err := session.DefaultRoot(sys)
	if err != nil {
		return nil
	}
	type cand struct{ dir, scope, hint string }
	cands := []cand{{root, "the global scope", "run charter with no agent-switch profile active and without --config-root"}}
	profiles := sys.Paths.Join(root, "profiles")
	providers, _ := afero.ReadDir(sys.Fs, profiles)
	for _, p := range providers {
		if !p.IsDir() {
			continue
		}
		names, _ := afero.ReadDir(sys.Fs, sys.Paths.Join(profiles, p.Name()))
		for _, n := range names {
			if n.IsDir() {
				cands = append(cands, cand{sys.Paths.Join(profiles, p.Name(), n.Name()), "profile " + p.Name() + "/" + n.Name(),
					"run charter with " + profileSetting(sys, p.Name(), n.Name()) + " and without --config-root"})
			}
		}
	}
	var out []Elsewhere
	for _, c := range cands {
		if c.dir == sc.Path {
			continue
		}
		d, err := readDiscoveryAt(sys, sys.Paths.Join(c.dir, DiscoveryName))
		if err == nil && d.Alive() {
			out = append(out, Elsewhere{Scope: c.scope, Dir: c.dir, Hint: c.hint, Discovery: d})
		}
	}
	return out
}

// Client talks to the running server of a scope.
type Client struct {
	Discovery Discovery
	sys       *core.System
	path      string
	token     string
	http      *http.Client
}

// Connect finds the server of a scope through its discovery and token files.
func Connect(sys *core.System, sc core.Scope) (*Client, error) {
	path := DiscoveryPath(sys, sc)
	none := func(reason string) error {
		return &NoServerError{Path: path, Reason: reason, Others: OtherServers(sys, sc)}
	}
	d, err := ReadDiscovery(sys, sc)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, none("")
	}
	if err != nil {
		return nil, none(err.Error())
	}
	if !processAlive(d.PID) {
		return nil, none(fmt.Sprintf("pid %d is not running", d.PID))
	}
	tok, err := sys.ReadFile(TokenPath(sys, sc), fsys.KindState)
	if err != nil {
		return nil, none(fmt.Sprintf("no token: %v", err))
	}
	return &Client{
		Discovery: d,
		sys:       sys,
		path:      path,
		token:     strings.TrimSpace(string(tok)),
		http:      &http.Client{Timeout: askTimeout},
	}, nil
}

// HubURL is the hub's address with the token in the fragment: for an
// open page (WriteOpenPage), never for a command line or output.
func (c *Client) HubURL() string { return c.Discovery.BaseURL() + "#token=" + c.token }

// Stop asks the server to stop (POST /api/v1/shutdown) and waits until it
// has removed its discovery file, or ctx ends.
func (c *Client) Stop(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.Discovery.BaseURL()+"api/v1/shutdown", nil)
	if err != nil {
		return fmt.Errorf("ask server: %w", err)
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	resp, err := c.http.Do(req)
	if err != nil {
		return &NoServerError{Path: c.path, Reason: fmt.Sprintf("port %d does not answer: %v", c.Discovery.Port, err)}
	}
	body, _ := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("server at %s refused to stop: %s: %s", c.Discovery.BaseURL(), resp.Status, errorMessage(body))
	}
	// The server answers first, lets requests in flight finish, then
	// removes its files, the discovery file last: wait for that, so a new
	// serve can start at once and none of the old files is left.
	tick := time.NewTicker(25 * time.Millisecond)
	defer tick.Stop()
	for {
		cur, err := readDiscoveryAt(c.sys, c.path)
		if err != nil || cur.PID != c.Discovery.PID || !cur.StartedAt.Equal(c.Discovery.StartedAt) || !processAlive(cur.PID) {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("asked the server at %s (pid %d) to stop, but it still runs: %w", c.Discovery.BaseURL(), c.Discovery.PID, ctx.Err())
		case <-tick.C:
		}
	}
}

// errorMessage is error.message of the one error shape, or the body.
func errorMessage(body []byte) string {
	var e struct {
		Error struct{ Message string } `json:"error"`
	}
	if json.Unmarshal(body, &e) == nil && e.Error.Message != "" {
		return e.Error.Message
	}
	return strings.TrimSpace(string(body))
}

// Ping returns the server's ping document as the server wrote it: an older
// server may lack fields this build knows.
func (c *Client) Ping(ctx context.Context) (json.RawMessage, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.Discovery.BaseURL()+"api/v1/ping", nil)
	if err != nil {
		return nil, fmt.Errorf("ask server: %w", err)
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	resp, err := c.http.Do(req)
	if err != nil {
		// The process lives but nothing answers: most likely its pid now
		// belongs to another program.
		return nil, &NoServerError{Path: c.path, Reason: fmt.Sprintf("port %d does not answer: %v", c.Discovery.Port, err)}
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		return nil, fmt.Errorf("read answer of %s: %w", c.Discovery.BaseURL(), err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("server at %s answered %s: %s", c.Discovery.BaseURL(), resp.Status, errorMessage(body))
	}
	if !json.Valid(body) {
		return nil, fmt.Errorf("server at %s answered with malformed JSON", c.Discovery.BaseURL())
	}
	return body, nil
}
