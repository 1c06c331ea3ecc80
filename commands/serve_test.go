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

	"github.com/agentkit/charter/core/coretest"
)

func testApp(t *testing.T, stdout, stderr *bytes.Buffer) *App {
	return &App{
		Sys:         coretest.New(t).Sys,
		Stdin:       strings.NewReader(""),
		Stdout:      stdout,
		Stderr:      stderr,
		build:       Build{Version: "1.2.3-test", Commit: "abc"},
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

// A second `serve --open` opens the running server's hub through the page,
// without open=1 and without the token in the opener's argument; `serve
// --stop` stops it (exit 0) and, with nothing left, exits 3.
func TestServeReuseAndStop(t *testing.T) {
	root := filepath.Join(t.TempDir(), "root")
	var out1, err1 bytes.Buffer
	first := testApp(t, &out1, &err1)
	done := make(chan ExitCode, 1)
	go func() { done <- first.run(context.Background(), []string{"serve", "--config-root", root}) }()
	disc := filepath.Join(root, "local-server.json")
	for {
		if _, err := os.Stat(disc); err == nil {
			break
		}
		select {
		case code := <-done:
			t.Fatalf("serve ended with %d: %s", code, err1.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	tok, err := os.ReadFile(filepath.Join(root, "local-server.token"))
	if err != nil {
		t.Fatal(err)
	}
	token := strings.TrimSpace(string(tok))

	var out2, err2 bytes.Buffer
	second := testApp(t, &out2, &err2)
	second.Sys = first.Sys
	var opened []string
	second.OpenURL = func(u string) error { opened = append(opened, u); return nil }
	if code := second.run(context.Background(), []string{"serve", "--config-root", root, "--open"}); code != ExitOK {
		t.Fatalf("serve --open beside a server: exit %d: %s", code, err2.String())
	}
	page := filepath.Join(root, "state", "open-hub.html")
	if len(opened) != 1 || opened[0] != "file://"+filepath.ToSlash(page) || strings.Contains(opened[0], token) {
		t.Errorf("opened %q", opened)
	}
	html, err := os.ReadFile(page)
	if err != nil || !strings.Contains(string(html), "#token="+token+`"`) {
		t.Errorf("page without the token or with open=1: %v\n%s", err, html)
	}
	if out := out2.String() + err2.String(); strings.Contains(out, token) || !strings.Contains(out, "already running at http://127.0.0.1:") {
		t.Errorf("output %q", out)
	}

	var out3, err3 bytes.Buffer
	third := testApp(t, &out3, &err3)
	third.Sys = first.Sys
	if code := third.run(context.Background(), []string{"serve", "--config-root", root, "--stop"}); code != ExitOK {
		t.Fatalf("serve --stop: exit %d: %s", code, err3.String())
	}
	if _, err := os.Stat(disc); !os.IsNotExist(err) {
		t.Error("--stop returned before the server removed its discovery file")
	}
	select {
	case code := <-done:
		if code != ExitOK {
			t.Errorf("stopped server: exit %d: %s", code, err1.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the server did not stop")
	}
	if code := third.run(context.Background(), []string{"serve", "--config-root", root, "--stop"}); code != ExitNoServer {
		t.Errorf("--stop with none running: exit %d, want %d", code, ExitNoServer)
	}
}
