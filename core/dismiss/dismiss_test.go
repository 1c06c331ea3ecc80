package dismiss

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/profile"
)

func TestDismissals(t *testing.T) {
	fs := afero.NewMemMapFs()
	s := core.NewSystem(fs, []string{"HOME=/h", "AGENTKIT_CONFIG_HOME=/elsewhere"}, time.Now, func() (string, error) { return "/", nil }, profile.Guard)
	for i := 0; i < 2; i++ {
		ids, err := Dismiss(s, "agent-switch", false)
		if err != nil || len(ids) != 1 {
			t.Fatalf("dismiss %d: %v %v", i, ids, err)
		}
	}
	data, _ := afero.ReadFile(fs, "/h/.agentkit/charter/dismissals.json")
	if !bytes.Contains(data, []byte(`"dismissed": [`)) {
		t.Fatalf("file %s", data)
	}
	var ue *core.Error
	if _, err := Dismiss(s, "other", false); !errors.As(err, &ue) || ue.Code() != core.CodeUnknownID {
		t.Fatalf("unknown id: %v", err)
	}
	// A corrupt file is an error, never silently replaced.
	afero.WriteFile(fs, "/h/.agentkit/charter/dismissals.json", []byte("{nope"), 0o600)
	if _, err := Dismiss(s, "agent-switch", false); err == nil {
		t.Fatal("corrupt file accepted")
	}
	if _, err := Dismissed(s, "agent-switch"); err == nil {
		t.Fatal("corrupt file read")
	}
	if got, _ := afero.ReadFile(fs, "/h/.agentkit/charter/dismissals.json"); string(got) != "{nope" {
		t.Fatalf("corrupt file rewritten: %q", got)
	}
}
