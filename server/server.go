// Package server is charter's loopback HTTP API and settings hub. It is one
// more skin over core: every endpoint calls the functions the CLI calls, so
// the two can never disagree.
//
// A server belongs to one scope. It binds 127.0.0.1 only, writes a fresh
// token and a discovery file into the scope directory, and removes both
// when it stops: on a cancelled context (SIGINT/SIGTERM), on
// POST /api/v1/shutdown, or after an idle timeout.
package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log"
	mrand "math/rand/v2"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/content"
	"github.com/agentkit/charter/core/fsys"
	"github.com/agentkit/charter/core/gates"
	"github.com/agentkit/charter/core/session"
)

// The random port range, used when no port is given.
const (
	PortMin = 41000
	PortMax = 41999
)

const (
	// drainTimeout bounds how long a stop waits for requests in flight.
	drainTimeout = 5 * time.Second
	// maxBody caps request bodies: settings patches are small.
	maxBody = 64 << 10
	// maxHeader caps a request's line and headers together.
	maxHeader = 16 << 10
	// beaconGrace is how long a shutdown beacon waits for the page to come
	// back: a browser sends it on a reload too, and the reloaded page pings
	// at once.
	beaconGrace = 3 * time.Second
)

// Config is what a server is built from.
type Config struct {
	Sys     *core.System
	Scope   core.Scope
	Project *core.Project // the project served (nil: none), found when serve started
	// ProjectRoot is where a first project file is created when Project is
	// nil: the repository root serve started in ("" outside a repository).
	ProjectRoot string
	Version     string
	Port        int           // 0: a random free port in PortMin–PortMax
	IdleTimeout time.Duration // 0: never stop for idleness
	BeaconGrace time.Duration // 0: beaconGrace
	Log         io.Writer     // lifecycle notes and HTTP errors; never sees the token
}

// Server is a running API for one scope.
type Server struct {
	cfg   Config
	sess  *session.Session // what every request works on (session.Options.Served)
	ln    net.Listener
	http  *http.Server
	port  int
	token string
	disc  []byte // the discovery file as written, to remove only our own
	idle  *watchdog

	stop     chan struct{} // closed by POST /api/v1/shutdown
	stopOnce sync.Once
	routes   map[string][]endpoint

	gateRun gates.OneRun // one POST /api/v1/gates/run at a time (gaterun.go)
	// Caches of GET answers, checked on every request against an inotify
	// watch of their files' directories, or against the files' identity.
	settingsCache filesCache[encoded]
	detectCache   filesCache[[]byte]
	watch         *fsys.DirWatch
	library       content.Cache // the content library, kept while nothing under it changes
	writes        writeBatcher  // PATCHes of one file share its writes

	beaconMu sync.Mutex
	beacon   *time.Timer // a beacon's pending stop; any other request cancels it
}

// RunningError refuses a second live server for one scope.
type RunningError struct{ Discovery Discovery }

func (e *RunningError) Error() string {
	return fmt.Sprintf("a charter server for this scope already runs at %s (pid %d): open its hub with `charter serve --open`, or stop it with `charter serve --stop`", e.Discovery.BaseURL(), e.Discovery.PID)
}

// Open binds the port and writes the token and discovery files. Call Serve
// to answer requests; Serve also removes the files again.
func Open(cfg Config) (*Server, error) {
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	if cfg.BeaconGrace <= 0 {
		cfg.BeaconGrace = beaconGrace
	}
	s := &Server{
		cfg:   cfg,
		token: newToken(),
		idle:  newWatchdog(cfg.IdleTimeout),
		stop:  make(chan struct{}),
	}
	// One resolution for every request: the scope and the project found
	// when serve started, the policy read per request.
	s.sess = session.New(cfg.Sys, session.Options{Scope: &cfg.Scope, Served: true, Project: cfg.Project, ProjectRoot: cfg.ProjectRoot,
		Version: func() string { return cfg.Version }, LoadLibrary: s.library.Load,
		Warn: func(msg string) { s.logf("warning: %s", msg) }})
	s.routes = s.api()
	// The lock makes check, bind and write one step, so two servers started
	// together cannot both believe they are the only one.
	err := cfg.Sys.WithLock(DiscoveryPath(cfg.Sys, cfg.Scope), func() error {
		if err := s.checkRunning(); err != nil {
			return err
		}
		ln, err := listen(cfg.Port)
		if err != nil {
			return err
		}
		s.ln = ln
		s.port = ln.Addr().(*net.TCPAddr).Port
		if err := s.writeFiles(); err != nil {
			ln.Close()
			s.removeFiles()
			return err
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	s.http = &http.Server{
		Handler:           s.recovering(s),
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       15 * time.Second,
		WriteTimeout:      15 * time.Second,
		IdleTimeout:       60 * time.Second,
		// Go reads maxHeaderBytes plus 4096 bytes of slack before it answers
		// 431: this makes the limit the 16 KiB the docs state, request
		// line and headers together.
		MaxHeaderBytes:               maxHeader - 4096,
		DisableGeneralOptionsHandler: true, // OPTIONS * meets the gates too
		ErrorLog:                     log.New(cfg.Log, "charter: http: ", 0),
	}
	s.watch = fsys.NewDirWatch(cfg.Sys.Fs) // one descriptor serves both caches
	s.settingsCache.watch, s.detectCache.watch, s.library.Watch = s.watch, s.watch, s.watch
	return s, nil
}

// writeFiles writes the token, then the discovery file: whoever finds the
// discovery file can rely on the token being there.
func (s *Server) writeFiles() error {
	sys := s.cfg.Sys
	if err := sys.WriteAtomic(TokenPath(sys, s.cfg.Scope), []byte(s.token+"\n")); err != nil {
		return err
	}
	d := Discovery{
		PID:        os.Getpid(),
		Port:       s.port,
		URL:        baseURL(s.port),
		StartedAt:  sys.Now().UTC().Truncate(time.Second),
		Version:    s.cfg.Version,
		ConfigRoot: s.cfg.Scope.Root.Path,
	}
	var err error
	if s.disc, err = d.Marshal(); err != nil {
		return err
	}
	return sys.WriteAtomic(DiscoveryPath(sys, s.cfg.Scope), s.disc)
}

// checkRunning refuses to start beside a live server and lets a stale
// discovery file be replaced.
func (s *Server) checkRunning() error {
	d, err := ReadDiscovery(s.cfg.Sys, s.cfg.Scope)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		s.logf("replacing an unreadable discovery file: %v", err)
		return nil
	case d.Alive():
		return &RunningError{Discovery: d}
	}
	s.logf("replacing a stale discovery file (pid %d, port %d: no server answers)", d.PID, d.Port)
	return nil
}

// listen binds 127.0.0.1 directly, so there is no window between finding a
// free port and taking it.
func listen(port int) (net.Listener, error) {
	if port != 0 {
		ln, err := net.Listen("tcp", loopbackAddr(port))
		if err != nil {
			return nil, fmt.Errorf("listen on %s: %w", loopbackAddr(port), err)
		}
		return ln, nil
	}
	var last error
	for _, i := range mrand.Perm(PortMax - PortMin + 1) {
		ln, err := net.Listen("tcp", loopbackAddr(PortMin+i))
		if err == nil {
			return ln, nil
		}
		last = err
	}
	return nil, fmt.Errorf("no free port in %d-%d: %w", PortMin, PortMax, last)
}

// newToken is 32 random bytes as 64 hex characters.
func newToken() string {
	b := make([]byte, 32)
	rand.Read(b) // never fails: crypto/rand aborts the program instead
	return hex.EncodeToString(b)
}

// Port is the port the server listens on.
func (s *Server) Port() int { return s.port }

// URL is the server's base URL, without the token.
func (s *Server) URL() string { return baseURL(s.port) }

// HubURL opens the hub with the token. The token rides in the fragment,
// which browsers never send to a server nor put in a Referer.
func (s *Server) HubURL() string { return s.URL() + "#token=" + s.token }

// Token is the bearer token of this process.
func (s *Server) Token() string { return s.token }

// Serve answers requests until ctx is cancelled, a shutdown is requested or
// the server has been idle too long. Requests in flight are given
// drainTimeout to finish; then the token and discovery files are removed.
func (s *Server) Serve(ctx context.Context) error {
	defer s.removeFiles()
	defer s.watch.Close()
	errc := make(chan error, 1)
	// goReplyListener: Go's own plain-text replies get the one error shape.
	go func() { errc <- s.http.Serve(goReplyListener{s.ln}) }()
	var reason string // why, unless a signal asked: the user knows then
	select {
	case <-ctx.Done():
	case <-s.stop:
		reason = ": shutdown requested"
	case <-s.idle.expired():
		reason = fmt.Sprintf(": idle for %s", s.cfg.IdleTimeout)
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	}
	// Not ctx: it may be done already, and the requests in flight still
	// get drainTimeout to finish.
	sctx, cancel := context.WithTimeout(context.Background(), drainTimeout)
	defer cancel()
	if err := s.http.Shutdown(sctx); err != nil {
		s.logf("requests still running after %s were cut off", drainTimeout)
		s.http.Close()
	}
	s.logf("stopped%s", reason)
	return nil
}

// requestStop ends Serve once the current requests are done.
func (s *Server) requestStop() { s.stopOnce.Do(func() { close(s.stop) }) }

// stopAfterGrace is the shutdown beacon's stop: it happens unless another
// authenticated request arrives first, as one does when the page was only
// reloaded.
func (s *Server) stopAfterGrace() {
	s.beaconMu.Lock()
	defer s.beaconMu.Unlock()
	if s.beacon == nil {
		s.beacon = time.AfterFunc(s.cfg.BeaconGrace, s.requestStop)
	}
}

// keepAlive cancels a beacon's pending stop.
func (s *Server) keepAlive() {
	s.beaconMu.Lock()
	defer s.beaconMu.Unlock()
	if s.beacon != nil && s.beacon.Stop() {
		s.logf("the page came back: shutdown beacon cancelled")
	}
	s.beacon = nil
}

// removeFiles deletes the open page, the token and the discovery file if
// they are still ours and regular files (see removeOwn): a server that replaced a stale file of ours keeps
// its own. The discovery file goes last: its removal is the signal that the
// server is gone (Client.Stop waits for it), so nothing of ours may be left
// once it is. A client that finds the discovery file without the token
// meanwhile counts the server as gone, which by then it is.
func (s *Server) removeFiles() {
	sys := s.cfg.Sys
	// The open page is ours while it holds our token, whoever wrote it.
	s.removeOwn(OpenFilePath(sys, s.cfg.Scope), func(cur []byte) bool {
		return strings.Contains(string(cur), "#token="+s.token)
	})
	s.removeOwn(TokenPath(sys, s.cfg.Scope), func(cur []byte) bool { return string(cur) == s.token+"\n" })
	s.removeOwn(DiscoveryPath(sys, s.cfg.Scope), func(cur []byte) bool { return string(cur) == string(s.disc) })
}

// removeOwn removes path when it is a regular file whose content mine
// accepts. A link there stays, whatever it points at: charter never
// removes or replaces a link (the server wrote through it; the file behind
// it keeps a token that dies with this process).
func (s *Server) removeOwn(path string, mine func([]byte) bool) {
	afs := s.cfg.Sys.Fs
	if fi, err := lstat(afs, path); err != nil || !fi.Mode().IsRegular() {
		return
	}
	if cur, err := s.cfg.Sys.ReadFile(path, fsys.KindState); err != nil || !mine(cur) {
		return
	}
	if err := afs.Remove(path); err != nil {
		s.logf("remove %s: %v", path, err)
	}
}

// lstat is Lstat where the file system has it; one without it has no links
// it could show (core's rule, see core/oslinks.go).
func lstat(fsys afero.Fs, path string) (fs.FileInfo, error) {
	if l, ok := fsys.(afero.Lstater); ok {
		fi, _, err := l.LstatIfPossible(path)
		return fi, err
	}
	return fsys.Stat(path)
}

func (s *Server) logf(format string, args ...any) {
	fmt.Fprintf(s.cfg.Log, "charter: "+format+"\n", args...)
}
