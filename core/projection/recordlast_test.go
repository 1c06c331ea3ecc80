package projection_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/fsys"
)

// The record is staged with the projected files (one syncfs makes all
// their bytes durable) but renamed only after every one of them: when its
// rename starts, each file already holds the new bytes and the old record
// is still in place. A crash before that rename leaves the old record,
// never one that claims a rename that did not happen.
func TestRecordRenamedAfterEveryFile(t *testing.T) {
	m := coretest.New(t)
	root := filepath.Join(m.Dir, "p")
	os.MkdirAll(filepath.Join(root, ".charter"), 0o755)
	items := bigLibrary()[:40]
	if err := plan(t, m.Sys, root, items, false).Run(context.Background(), m.Sys, false); err != nil {
		t.Fatal(err)
	}
	recPath := filepath.Join(root, ".charter", "projection.lock")
	oldRec, err := os.ReadFile(recPath)
	if err != nil {
		t.Fatal(err)
	}
	for j := range items {
		items[j].Body = append(bytes.Clone(items[j].Body), "round 1\n"...)
	}
	var renames []string
	var atRecord []string // files not yet new when the record's rename began
	recordSeen := false
	var mu sync.Mutex // each folder's renames run in a goroutine of their own
	m.Sys.BeforeRename = func(tmp string) {
		mu.Lock()
		defer mu.Unlock()
		if !strings.HasPrefix(tmp, root+string(filepath.Separator)) {
			return // the per-user stat cache, written after the run
		}
		name, _ := fsys.TempOf(filepath.Base(tmp))
		renames = append(renames, name)
		if name != "projection.lock" {
			return
		}
		recordSeen = true
		if b, _ := os.ReadFile(recPath); !bytes.Equal(b, oldRec) {
			t.Error("the record changed before its own rename")
		}
		filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
			if err != nil || fi.IsDir() || strings.Contains(p, ".charter") || !strings.HasSuffix(p, ".md") {
				return nil
			}
			if b, _ := os.ReadFile(p); !bytes.Contains(b, []byte("round 1\n")) && bytes.Contains(b, []byte("Follow this rule")) {
				atRecord = append(atRecord, p)
			}
			return nil
		})
	}
	p := plan(t, m.Sys, root, items, false)
	if err := p.Run(context.Background(), m.Sys, false); err != nil {
		t.Fatal(err)
	}
	m.Sys.BeforeRename = nil
	if !recordSeen {
		t.Fatal("the record was not written through a rename")
	}
	if len(renames) < 2 || renames[len(renames)-1] != "projection.lock" {
		t.Fatalf("the record's rename is not the last in the project: %v", renames[max(0, len(renames)-3):])
	}
	if len(atRecord) > 0 {
		t.Fatalf("%d files still old when the record's rename began, such as %s", len(atRecord), atRecord[0])
	}
	if n := countTemps(root); n > 0 {
		t.Fatalf("%d temporary names left", n)
	}
	if b, _ := os.ReadFile(recPath); bytes.Equal(b, oldRec) {
		t.Fatal("the record was not replaced")
	}
}
