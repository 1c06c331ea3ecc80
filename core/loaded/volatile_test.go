package loaded

import (
	"os"
	"testing"
)

// The records are written without fsync: a crash may leave one empty or
// cut short. Such a record reads as none, and the next event of its
// session writes it afresh.
func TestCrashLeftRecord(t *testing.T) {
	for name, left := range map[string]string{"empty": "", "cut short": `{"session":"s1","files":[{"path":`} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			f.record(t, event("s1", f.proj, f.always, "session_start"))
			path := sessionPath(f.sys, Dir(f.sys, f.state), "s1")
			if err := os.WriteFile(path, []byte(left), 0o600); err != nil {
				t.Fatal(err)
			}
			if got := mustRead(t, f.sys, f.state, f.proj).Of("rule", "always"); got.State == StateLoaded {
				t.Fatalf("a broken record counts: %+v", got)
			}
			f.record(t, event("s1", f.proj, f.scoped, "path_glob_match"))
			v := mustRead(t, f.sys, f.state, f.proj)
			if got := v.Of("rule", "go-style"); got.State != StateLoaded {
				t.Errorf("go-style after the broken record: %+v", got)
			}
		})
	}
}
