package server

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A handler's operating-system error reads as the CLI's: each path once,
// in words, with what to do, never the temporary file.
func TestHandlerErrorInWords(t *testing.T) {
	e := newEnv(t)
	s := &Server{cfg: Config{Sys: e.sys}}
	file := filepath.Join(e.dir, "plain")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	below := filepath.Join(file, "settings.yaml")
	target := filepath.Join(e.dir, "settings.yaml")
	tmp := filepath.Join(e.dir, ".charter-tmp-settings.yaml-7")
	for _, c := range []struct {
		err  error
		want string
	}{
		{fmt.Errorf("read %s: %w", below, &fs.PathError{Op: "open", Path: below, Err: syscall.ENOTDIR}),
			"read " + below + ": " + file + " is a file, not a directory: move it away, or choose another path"},
		{fmt.Errorf("write %s: %w", target, &fs.PathError{Op: "open", Path: tmp, Err: syscall.EACCES}),
			"write " + target + ": permission denied: charter may not create files in " + e.dir + "; check that directory's owner and permissions"},
	} {
		w := httptest.NewRecorder()
		s.writeError(w, c.err)
		var doc struct {
			Error struct{ Code, Message string }
		}
		if err := json.Unmarshal(w.Body.Bytes(), &doc); err != nil {
			t.Fatalf("%v: %s", err, w.Body)
		}
		if w.Code != 500 || doc.Error.Code != "internal" || doc.Error.Message != c.want || strings.Contains(doc.Error.Message, ".charter-tmp-") {
			t.Errorf("%d %s\nwant message: %s", w.Code, w.Body, c.want)
		}
	}
}
