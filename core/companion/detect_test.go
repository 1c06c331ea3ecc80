package companion

import (
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/profile"
)

func TestDetectOnMemFs(t *testing.T) {
	fs := afero.NewMemMapFs()
	s := core.NewSystem(fs, []string{"HOME=/h", "PATH=/usr/bin:/opt/as/bin"}, time.Now, func() (string, error) { return "/", nil }, profile.Guard)
	d, _ := Detect(s)
	if d.Installed || d.InstallCommand == nil || d.Dismissed {
		t.Fatalf("nothing: %+v", d)
	}
	afero.WriteFile(fs, "/opt/as/bin/agent-switch", []byte("#!"), 0o755)
	afero.WriteFile(fs, "/opt/as/package.json", []byte(`{"name":"@event4u/agent-switch","version":"1.2.3"}`), 0o644)
	d, _ = Detect(s)
	if !d.Installed || d.Version == nil || *d.Version != "1.2.3" || d.InstallCommand != nil {
		t.Fatalf("binary: %+v", d)
	}
	// A non-executable file is not a binary; the home alone has no version.
	fs.Chmod("/opt/as/bin/agent-switch", 0o644)
	fs.MkdirAll("/h/.agent-switch", 0o700)
	d, _ = Detect(s)
	if !d.Installed || d.Version != nil {
		t.Fatalf("home only: %+v", d)
	}
}
