package settings

import (
	"path/filepath"
	"testing"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/coretest"
)

// Disabling a policy folder's rule or skill is refused by a write and by
// an edit that adds the name; an edit of a file that already names one
// may change the rest.
func TestPolicyItemsLocked(t *testing.T) {
	m := coretest.New(t)
	dir := filepath.Dir(m.PolicyFile)
	coretest.WriteFile(t, filepath.Join(dir, "rules", "mandated.md"), "x")
	coretest.WriteFile(t, filepath.Join(dir, "rules", ".hidden.md"), "x")
	coretest.WriteFile(t, filepath.Join(dir, "skills", "guard", "SKILL.md"), "x")
	sc := core.Scope{Kind: core.ScopeHost, Path: filepath.Join(m.Dir, "root"), Root: core.ConfigRoot{Path: filepath.Join(m.Dir, "root")}}
	st := Open(m.Sys, sc, nil, nil)
	for key, v := range map[string][]string{KeyRulesDisabled: {"a", "mandated"}, KeySkillsDisabled: {"guard"}} {
		_, err := st.Write(Update{Set: map[string]any{key: v}})
		if core.ErrorCode(err) != core.CodeLockedByPolicy {
			t.Errorf("%s: %v", key, err)
		}
	}
	if _, err := st.Write(Update{Set: map[string]any{KeyRulesDisabled: []string{"hidden", "other"}}}); err != nil {
		t.Fatal(err)
	}
	old := []byte("rules:\n  disabled: [mandated]\n")
	if err := st.CheckEdit(old, []byte("rules:\n  disabled: [mandated, other]\n")); err != nil {
		t.Errorf("edit of a file that already names it: %v", err)
	}
	if err := st.CheckEdit([]byte(""), old); core.ErrorCode(err) != core.CodeLockedByPolicy {
		t.Errorf("edit that adds it: %v", err)
	}
}
