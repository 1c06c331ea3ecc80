package server

// A scope's server announces itself in two files of the scope directory:
// the discovery file (address and process) and the token file. They are
// this skin's own business: the server writes them, its Client and Hub
// read them, and `charter ping --server`, `serve --open`, `serve --stop`
// and doctor reach a server through those.

import (
	"encoding/json"
	"fmt"
	"net"
	"strconv"
	"time"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/fsys"
)

// Names of the server's state files in the scope directory.
const (
	DiscoveryName = "local-server.json"
	TokenName     = "local-server.token"
)

// DiscoveryPath is where a scope's server announces itself.
func DiscoveryPath(sys *core.System, sc core.Scope) string {
	return sys.Paths.Join(sc.Path, DiscoveryName)
}

// TokenPath is where a scope's server keeps its bearer token.
func TokenPath(sys *core.System, sc core.Scope) string {
	return sys.Paths.Join(sc.Path, TokenName)
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

// Marshal is the file's bytes.
func (d Discovery) Marshal() ([]byte, error) {
	b, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode discovery: %w", err)
	}
	return append(b, '\n'), nil
}

// BaseURL is built from the port, never taken from the file, so a client
// only ever talks to loopback.
func (d Discovery) BaseURL() string { return baseURL(d.Port) }

// loopbackAddr is the loopback address of a port.
func loopbackAddr(port int) string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(port)) }

// baseURL is the server's address on a loopback port.
func baseURL(port int) string { return "http://" + loopbackAddr(port) + "/" }

// ReadDiscovery reads a scope's discovery file; a missing file is
// fs.ErrNotExist.
func ReadDiscovery(sys *core.System, sc core.Scope) (Discovery, error) {
	return readDiscoveryAt(sys, DiscoveryPath(sys, sc))
}

// readDiscoveryAt reads the discovery file at path.
func readDiscoveryAt(sys *core.System, path string) (Discovery, error) {
	data, err := sys.ReadFile(path, fsys.KindState)
	if err != nil {
		return Discovery{}, fsys.ReadError(path, err)
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

// Alive reports whether the process is there and its port answers.
func (d Discovery) Alive() bool {
	if !processAlive(d.PID) {
		return false
	}
	c, err := net.DialTimeout("tcp", loopbackAddr(d.Port), time.Second)
	if err != nil {
		return false
	}
	c.Close()
	return true
}
