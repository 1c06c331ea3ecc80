package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
)

// Names of the server's state files in the scope directory.
const (
	DiscoveryFile = "local-server.json"
	TokenFile     = "local-server.token"
)

// askTimeout bounds a client's whole request to a server.
const askTimeout = 2 * time.Second

// DiscoveryPath is where a scope's server announces itself.
func DiscoveryPath(sys *core.System, sc core.Scope) string {
	return sys.Paths.Join(sc.Path, DiscoveryFile)
}

// TokenPath is where a scope's server keeps its bearer token.
func TokenPath(sys *core.System, sc core.Scope) string {
	return sys.Paths.Join(sc.Path, TokenFile)
}

// Discovery is the content of local-server.json. Readers treat it as
// possibly stale: the process that wrote it may be gone.
type Discovery struct {
	PID        int       `json:"pid"`
	Port       int       `json:"port"`
	URL        string    `json:"url"` // never holds the token
	StartedAt  time.Time `json:"startedAt"`
	Version    string    `json:"version"`
	ConfigRoot string    `json:"configRoot"` // the root's path
}

func (d Discovery) marshal() ([]byte, error) {
	b, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode discovery: %w", err)
	}
	return append(b, '\n'), nil
}

// BaseURL is built from the port, never taken from the file, so a client
// only ever talks to loopback.
func (d Discovery) BaseURL() string { return baseURL(d.Port) }

// ReadDiscovery reads a scope's discovery file; a missing file is
// fs.ErrNotExist.
func ReadDiscovery(sys *core.System, sc core.Scope) (Discovery, error) {
	path := DiscoveryPath(sys, sc)
	data, err := afero.ReadFile(sys.Fs, path)
	if err != nil {
		return Discovery{}, fmt.Errorf("read %s: %w", path, err)
	}
	var d Discovery
	if err := json.Unmarshal(data, &d); err != nil {
		return Discovery{}, fmt.Errorf("read %s: %w", path, err)
	}
	if d.Port <= 0 || d.Port > 65535 {
		return Discovery{}, fmt.Errorf("read %s: port %d out of range", path, d.Port)
	}
	return d, nil
}

// alive reports whether the process is there and its port answers.
func (d Discovery) alive() bool {
	if !processAlive(d.PID) {
		return false
	}
	c, err := net.DialTimeout("tcp", addr(d.Port), time.Second)
	if err != nil {
		return false
	}
	c.Close()
	return true
}

// NoServerError means no live server runs for a scope.
type NoServerError struct {
	Path   string // the discovery file
	Reason string // why it does not count; empty when there is none
}

func (e *NoServerError) Error() string {
	if e.Reason == "" {
		return fmt.Sprintf("no charter server runs for this scope (no %s): start one with `charter serve`", e.Path)
	}
	return fmt.Sprintf("no charter server runs for this scope: %s is stale (%s): start one with `charter serve`", e.Path, e.Reason)
}

// Client talks to the running server of a scope.
type Client struct {
	Discovery Discovery
	path      string
	token     string
	http      *http.Client
}

// Connect finds the server of a scope through its discovery and token files.
func Connect(sys *core.System, sc core.Scope) (*Client, error) {
	path := DiscoveryPath(sys, sc)
	d, err := ReadDiscovery(sys, sc)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, &NoServerError{Path: path}
	}
	if err != nil {
		return nil, &NoServerError{Path: path, Reason: err.Error()}
	}
	if !processAlive(d.PID) {
		return nil, &NoServerError{Path: path, Reason: fmt.Sprintf("pid %d is not running", d.PID)}
	}
	tok, err := afero.ReadFile(sys.Fs, TokenPath(sys, sc))
	if err != nil {
		return nil, &NoServerError{Path: path, Reason: fmt.Sprintf("no token: %v", err)}
	}
	return &Client{
		Discovery: d,
		path:      path,
		token:     strings.TrimSpace(string(tok)),
		http:      &http.Client{Timeout: askTimeout},
	}, nil
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
		var e struct {
			Error struct{ Message string } `json:"error"`
		}
		json.Unmarshal(body, &e)
		return nil, fmt.Errorf("server at %s answered %s: %s", c.Discovery.BaseURL(), resp.Status, e.Error.Message)
	}
	if !json.Valid(body) {
		return nil, fmt.Errorf("server at %s answered with malformed JSON", c.Discovery.BaseURL())
	}
	return body, nil
}
