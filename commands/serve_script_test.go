package commands

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// Script commands for talking to servers. They read the discovery and token
// files themselves, independently of server, so a script also checks
// the files' format.

// cmdWaitfile waits (at most 30 s) until a file exists and, when a pattern
// is given, matches it: waitfile root/local-server.json ['"version": "1'].
func cmdWaitfile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 || len(args) > 2 {
		ts.Fatalf("usage: waitfile PATH [REGEXP]")
	}
	var re *regexp.Regexp
	if len(args) == 2 {
		re = regexp.MustCompile(args[1])
	}
	path := ts.MkAbs(args[0])
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if data, err := os.ReadFile(path); err == nil && (re == nil || re.Match(data)) {
			return
		}
	}
	ts.Fatalf("waitfile: %s did not appear in 30s", args[0])
}

// cmdHTTP sends one request to the server of a scope directory and prints
// the status line and the body:
//
//	http [-ifmatch] [-noauth] [-H 'Name: value']... SCOPEDIR METHOD PATH [BODY]
//
// -ifmatch reads the settings first and sends their ETag as If-Match. It
// fails on a status other than 2xx, or with ! on a 2xx.
func cmdHTTP(ts *testscript.TestScript, neg bool, args []string) {
	var ifMatch, noAuth bool
	hdr := http.Header{}
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		switch args[0] {
		case "-ifmatch":
			ifMatch = true
		case "-noauth":
			noAuth = true
		case "-H":
			if len(args) < 2 {
				ts.Fatalf("http: -H needs a header")
			}
			k, v, _ := strings.Cut(args[1], ":")
			hdr.Add(k, strings.TrimSpace(v))
			args = args[1:]
		default:
			ts.Fatalf("http: unknown flag %s", args[0])
		}
		args = args[1:]
	}
	if len(args) < 3 || len(args) > 4 {
		ts.Fatalf("usage: http [-ifmatch] [-noauth] [-H 'Name: value'] SCOPEDIR METHOD PATH [BODY]")
	}
	dir, method, path := ts.MkAbs(args[0]), args[1], args[2]
	var disc struct{ Port int }
	data, err := os.ReadFile(filepath.Join(dir, "local-server.json"))
	ts.Check(err)
	ts.Check(json.Unmarshal(data, &disc))
	tok, err := os.ReadFile(filepath.Join(dir, "local-server.token"))
	ts.Check(err)
	base := fmt.Sprintf("http://127.0.0.1:%d", disc.Port)
	if !noAuth {
		hdr.Set("Authorization", "Bearer "+strings.TrimSpace(string(tok)))
	}
	send := func(method, path, body string) (*http.Response, []byte) {
		req, err := http.NewRequest(method, base+path, strings.NewReader(body))
		ts.Check(err)
		req.Header = hdr.Clone()
		resp, err := (&http.Client{Timeout: 10 * time.Second}).Do(req)
		ts.Check(err)
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		ts.Check(err)
		return resp, b
	}
	if ifMatch {
		resp, _ := send(http.MethodGet, "/api/v1/settings", "")
		hdr.Set("If-Match", resp.Header.Get("ETag"))
	}
	body := ""
	if len(args) == 4 {
		body = args[3]
	}
	resp, b := send(method, path, body)
	fmt.Fprintf(ts.Stdout(), "%s\n%s", resp.Status, b)
	if ok := resp.StatusCode/100 == 2; ok == neg {
		ts.Fatalf("http: %s %s answered %s", method, path, resp.Status)
	}
}

// cmdFakeServer plays a server of an older charter for a scope directory,
// in this test process: fakeserver SCOPEDIR [CAPABILITIES-JSON]. Without
// the second argument its ping has no capabilities block at all.
func cmdFakeServer(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 || len(args) > 2 {
		ts.Fatalf("usage: fakeserver SCOPEDIR [CAPABILITIES-JSON]")
	}
	dir := ts.MkAbs(args[0])
	doc := map[string]any{"ok": true, "name": "charter", "version": "0.9.0"}
	if len(args) == 2 {
		doc["capabilities"] = json.RawMessage(args[1])
	}
	const token = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	ts.Check(err)
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/v1/ping" || r.Header.Get("Authorization") != "Bearer "+token {
			http.Error(w, `{"error":{"code":"not_found","message":"no"}}`, http.StatusNotFound)
			return
		}
		json.NewEncoder(w).Encode(doc)
	})}
	go srv.Serve(ln)
	ts.Defer(func() { srv.Close() })
	port := ln.Addr().(*net.TCPAddr).Port
	disc, _ := json.Marshal(map[string]any{
		"pid": os.Getpid(), "port": port, "url": fmt.Sprintf("http://127.0.0.1:%d/", port),
		"startedAt": time.Now().UTC(), "version": "0.9.0",
	})
	ts.Check(os.MkdirAll(dir, 0o700))
	ts.Check(os.WriteFile(filepath.Join(dir, "local-server.json"), disc, 0o600))
	ts.Check(os.WriteFile(filepath.Join(dir, "local-server.token"), []byte(token+"\n"), 0o600))
}

// cmdHolds checks whether a file (or stdout/stderr) contains the trimmed
// content of another: holds FILE NEEDLE-FILE. With ! it must not, which
// is how a script shows that the token file's content reached no output.
func cmdHolds(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: holds FILE NEEDLE-FILE")
	}
	needle := strings.TrimSpace(ts.ReadFile(args[1]))
	if needle == "" {
		ts.Fatalf("holds: %s is empty", args[1])
	}
	if got := strings.Contains(ts.ReadFile(args[0]), needle); got == neg {
		ts.Fatalf("%s %s the content of %s", args[0], map[bool]string{true: "holds", false: "does not hold"}[got], args[1])
	}
}

// cmdSigterm sends SIGTERM to the server of a scope directory, found
// through its discovery file: sigterm SCOPEDIR. (testscript's kill knows
// only INT and KILL.)
func cmdSigterm(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: sigterm SCOPEDIR")
	}
	var disc struct{ PID int }
	data, err := os.ReadFile(filepath.Join(ts.MkAbs(args[0]), "local-server.json"))
	ts.Check(err)
	ts.Check(json.Unmarshal(data, &disc))
	p, err := os.FindProcess(disc.PID)
	ts.Check(err)
	ts.Check(p.Signal(syscall.SIGTERM))
}
