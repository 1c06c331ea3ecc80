package sources

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/profile"
)

// Without git on PATH every fetch fails with one error that names what to
// install; reading a cached tree needs no git.
func TestNoGitOnPath(t *testing.T) {
	dir := t.TempDir()
	sys := core.NewSystem(afero.NewOsFs(), []string{"PATH=" + dir, "HOME=" + dir}, time.Now, func() (string, error) { return dir, nil }, profile.Guard)
	if _, err := FindGit(sys); !errors.Is(err, ErrNoGit) {
		t.Fatalf("FindGit = %v, want ErrNoGit", err)
	}
	if !strings.Contains(ErrNoGit.Error(), "install git") || core.ErrorCode(ErrNoGit) != core.CodeNotSupported {
		t.Errorf("ErrNoGit = %q (%s)", ErrNoGit, core.ErrorCode(ErrNoGit))
	}
	c, err := OpenCache(sys)
	if err != nil {
		t.Fatal(err)
	}
	d, _ := ParseDecl("file:///nowhere/lib")
	if _, err := c.Take(t.Context(), d); !errors.Is(err, ErrNoGit) {
		t.Errorf("Take = %v, want ErrNoGit", err)
	}
	if c.Cached(context.Background(), Pin{Decl: d, Commit: strings.Repeat("a", 40), Tree: strings.Repeat("b", 64)}) {
		t.Error("a tree never taken reads as cached")
	}
}
