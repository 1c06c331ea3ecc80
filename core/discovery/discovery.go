// Package discovery is where a scope's server announces itself: the
// discovery and token files in the scope directory, what they hold, and
// whether the server they name still runs. The server writes them; the
// CLI's clients and doctor read them.
package discovery

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
	FileName  = "local-server.json"
	TokenName = "local-server.token"
)

// Path is where a scope's server announces itself.
func Path(sys *core.System, sc core.Scope) string {
	return sys.Paths.Join(sc.Path, FileName)
}

// TokenPath is where a scope's server keeps its bearer token.
func TokenPath(sys *core.System, sc core.Scope) string {
	return sys.Paths.Join(sc.Path, TokenName)
}

// Info is the content of local-server.json. Readers treat it as possibly
// stale: the process that wrote it may be gone.
type Info struct {
	PID        int       `json:"pid"`
	Port       int       `json:"port"`
	URL        string    `json:"url"` // never holds the token
	StartedAt  time.Time `json:"startedAt"`
	Version    string    `json:"version"`
	ConfigRoot string    `json:"configRoot"` // the root's path
}

// Marshal is the file's bytes.
func (d Info) Marshal() ([]byte, error) {
	b, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode discovery: %w", err)
	}
	return append(b, '\n'), nil
}

// BaseURL is built from the port, never taken from the file, so a client
// only ever talks to loopback.
func (d Info) BaseURL() string { return BaseURL(d.Port) }

// Addr is the loopback address of a port.
func Addr(port int) string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(port)) }

// BaseURL is the server's address on a loopback port.
func BaseURL(port int) string { return "http://" + Addr(port) + "/" }

// Read reads a scope's discovery file; a missing file is fs.ErrNotExist.
func Read(sys *core.System, sc core.Scope) (Info, error) {
	return ReadAt(sys, Path(sys, sc))
}

// ReadAt reads the discovery file at path.
func ReadAt(sys *core.System, path string) (Info, error) {
	data, err := sys.ReadFile(path, fsys.KindState)
	if err != nil {
		return Info{}, fsys.ReadError(path, err)
	}
	var d Info
	if err := json.Unmarshal(data, &d); err != nil {
		return Info{}, fmt.Errorf("read %s: %w", path, err)
	}
	if d.Port <= 0 || d.Port > 65535 {
		return Info{}, fmt.Errorf("read %s: port %d out of range", path, d.Port)
	}
	return d, nil
}

// Alive reports whether the process is there and its port answers.
func (d Info) Alive() bool {
	if !ProcessAlive(d.PID) {
		return false
	}
	c, err := net.DialTimeout("tcp", Addr(d.Port), time.Second)
	if err != nil {
		return false
	}
	c.Close()
	return true
}
