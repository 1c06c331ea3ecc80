package commands

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
)

func testApp(t *testing.T, stdout, stderr *bytes.Buffer) *App {
	home := filepath.Join(t.TempDir(), "home")
	return &App{
		Sys:         core.NewSystem(afero.NewOsFs(), []string{"HOME=" + home, "PATH="}, time.Now, os.Getwd),
		Stdin:       strings.NewReader(""),
		Stdout:      stdout,
		Stderr:      stderr,
		Build:       Build{Version: "1.2.3-test", Commit: "abc"},
		Interactive: func() bool { return false },
	}
}

// --port is taken as given, --open hands the opener a file:// URL of a
// 0600 page that carries the token (never the token itself), the output
// holds no token, and a cancelled context is a clean exit 0.
func TestServePortOpenAndCancel(t *testing.T) {
	for _, asJSON := range []bool{false, true} {
		t.Run(fmt.Sprintf("json=%v", asJSON), func(t *testing.T) { testServeOpen(t, asJSON) })
	}
}

func testServeOpen(t *testing.T, asJSON bool) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()

	var stdout, stderr bytes.Buffer
	a := testApp(t, &stdout, &stderr)
	a.JSON = asJSON
	opened := make(chan string, 1)
	a.OpenURL = func(u string) error { opened <- u; return nil }
	root := filepath.Join(t.TempDir(), "root")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan ExitCode, 1)
	args := []string{"serve", "--config-root", root, "--port", fmt.Sprint(port), "--open"}
	if asJSON {
		args = append(args, "--json")
	}
	go func() { done <- a.run(ctx, args) }()

	var u string
	select {
	case u = <-opened:
	case code := <-done:
		t.Fatalf("serve ended with %d: %s", code, stderr.String())
	case <-time.After(20 * time.Second):
		t.Fatal("the hub was not opened")
	}
	tok, err := os.ReadFile(filepath.Join(root, "local-server.token"))
	if err != nil {
		t.Fatal(err)
	}
	token := strings.TrimSpace(string(tok))
	page := filepath.Join(root, "state", "open-hub.html")
	if want := "file://" + filepath.ToSlash(page); u != want {
		t.Errorf("opened %q, want %q", u, want)
	}
	if strings.Contains(u, token) {
		t.Error("the token reached the opener's argument")
	}
	html, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	hub := fmt.Sprintf("http://127.0.0.1:%d/#token=%s&amp;open=1", port, token)
	if !strings.Contains(string(html), `content="0;url=`+hub+`"`) || !strings.Contains(string(html), `href="`+hub+`"`) {
		t.Errorf("the page does not lead to the hub:\n%s", html)
	}
	if fi, err := os.Stat(page); err != nil || runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
		t.Errorf("page mode: %v %v", fi.Mode(), err)
	}
	cancel()
	if code := <-done; code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if asJSON {
		var ready readyDoc
		if err := json.Unmarshal(stdout.Bytes(), &ready); err != nil || ready.Event != "ready" || ready.Port != port || ready.PID != os.Getpid() ||
			ready.Scope.Path != root || ready.Settings != filepath.Join(root, "settings.yaml") {
			t.Errorf("ready line %q: %v", stdout.String(), err)
		}
	} else if want := fmt.Sprintf("serving http://127.0.0.1:%d/ (pid %d)", port, os.Getpid()); !strings.HasPrefix(stdout.String(), want) {
		t.Errorf("stdout %q, want %q…", stdout.String(), want)
	}
	if out := stdout.String() + stderr.String(); strings.Contains(out, token) || strings.Contains(out, "#token") {
		t.Errorf("the token reached the output:\n%s", out)
	}
	for _, f := range []string{"local-server.json", "local-server.token", filepath.Join("state", "open-hub.html")} {
		if _, err := os.Stat(filepath.Join(root, f)); !os.IsNotExist(err) {
			t.Errorf("%s left behind", f)
		}
	}
}

func TestServePortTaken(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var stdout, stderr bytes.Buffer
	a := testApp(t, &stdout, &stderr)
	port := ln.Addr().(*net.TCPAddr).Port
	code := a.run(context.Background(), []string{"serve", "--config-root", t.TempDir(), "--port", fmt.Sprint(port)})
	if code != ExitRuntime || !strings.Contains(stderr.String(), fmt.Sprintf("listen on 127.0.0.1:%d", port)) || stdout.Len() != 0 {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
}
