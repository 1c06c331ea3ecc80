package commands

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
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

// --port is taken as given, --open hands the hub URL (token in the
// fragment) to the opener, and a cancelled context is a clean exit 0.
func TestServePortOpenAndCancel(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()

	var stdout, stderr bytes.Buffer
	a := testApp(t, &stdout, &stderr)
	opened := make(chan string, 1)
	a.OpenURL = func(u string) error { opened <- u; return nil }
	root := filepath.Join(t.TempDir(), "root")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan ExitCode, 1)
	go func() {
		done <- a.run(ctx, []string{"serve", "--config-root", root, "--port", fmt.Sprint(port), "--open"})
	}()

	var u string
	select {
	case u = <-opened:
	case code := <-done:
		t.Fatalf("serve ended with %d: %s", code, stderr.String())
	case <-time.After(20 * time.Second):
		t.Fatal("the hub was not opened")
	}
	if want := fmt.Sprintf("http://127.0.0.1:%d/#token=", port); !strings.HasPrefix(u, want) || !strings.HasSuffix(u, "&open=1") || len(u) != len(want)+64+len("&open=1") {
		t.Errorf("opened %q, want %s<64 hex>&open=1", u, want)
	}
	cancel()
	if code := <-done; code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var ready readyDoc
	if err := json.Unmarshal(stdout.Bytes(), &ready); err != nil || ready.Event != "ready" || ready.Port != port || ready.PID != os.Getpid() || ready.Scope.Path != root {
		t.Errorf("ready line %q: %v", stdout.String(), err)
	}
	if strings.Contains(stdout.String(), "token") {
		t.Error("the token reached stdout")
	}
	if _, err := os.Stat(filepath.Join(root, "local-server.json")); !os.IsNotExist(err) {
		t.Error("discovery file left behind")
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
