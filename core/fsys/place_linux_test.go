package fsys

import (
	"os"
	"syscall"
	"testing"
)

// A profile folder bind-mounted from the shared one is the shared folder:
// same device and inode, no link on the way. Where mounting is not
// permitted, a developer's run skips; CI runs the same checks on a folder
// moved after it was located (TestReachesFolderByIdentity's way), never
// skipping.
func TestReachesBindMount(t *testing.T) {
	tr := newTree(t)
	tr.dir("shared/skills/review", "profile/skills", "profile/other", "profile/skills-not")
	shared, ok, err := Locate(tr.p("shared/skills"))
	if err != nil || !ok || !shared.folder {
		t.Fatalf("locate the shared folder: %v %v %+v", ok, err, shared)
	}
	if err := syscall.Mount(tr.p("shared/skills"), tr.p("profile/skills"), "", syscall.MS_BIND, ""); err != nil {
		if os.Getenv("CI") != "true" {
			t.Skipf("bind mount not permitted here (%v): TestReachesFolderByIdentity covers the identity", err)
		}
		t.Logf("bind mount not permitted (%v): the folder is moved instead", err)
		os.Remove(tr.p("profile/skills"))
		if err := os.Rename(tr.p("shared/skills"), tr.p("profile/skills")); err != nil {
			t.Fatal(err)
		}
	} else {
		t.Cleanup(func() { syscall.Unmount(tr.p("profile/skills"), syscall.MNT_DETACH) })
	}
	reachedByIdentity(t, tr, shared)
}
