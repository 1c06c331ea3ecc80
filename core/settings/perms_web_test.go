package settings

import (
	"os"
	"strings"
	"testing"

	"github.com/agentkit/charter/core"
)

// web:* is every domain: it covers each web rule, and only web rules.
func TestWebEveryCoversEveryDomain(t *testing.T) {
	every, err := ParseRule("web:*")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"web:example.com", "web:*.example.com", "web:pkg.go.dev", "web:*"} {
		r, err := ParseRule(s)
		if err != nil {
			t.Fatal(err)
		}
		if !every.Covers(r) || !r.Overlaps(every) {
			t.Errorf("web:* does not cover %s", s)
		}
	}
	narrow, _ := ParseRule("web:*.example.com")
	if narrow.Covers(every) {
		t.Error("web:*.example.com covers web:*")
	}
	if every.Covers(Rule{Kind: RuleShell, Arg: "curl"}) {
		t.Error("web:* covers a shell rule")
	}
	for _, bad := range []string{"web:*example.com", "web:a.*.com", "web:**"} {
		if _, err := ParseRule(bad); err == nil || !strings.Contains(err.Error(), "web:*") {
			t.Errorf("%s: %v, want a refusal naming web:*", bad, err)
		}
	}
}

// A policy deny of web:* is met by any lower layer's ask or allow of a
// domain: refused at every writable layer, nothing written; a deny stays
// allowed.
func TestPolicyWebEveryLocksEveryDomain(t *testing.T) {
	st, _, _ := layeredStore(t, "permissions:\n  deny: [\"web:*\"]\n")
	for _, layer := range WritableLayers() {
		target, err := st.Target(layer)
		if err != nil {
			t.Fatal(err)
		}
		for key, v := range map[string][]string{
			KeyPermissionsAllow: {"web:pkg.go.dev"},
			KeyPermissionsAsk:   {"web:*.example.com"},
		} {
			_, err := target.Write(Update{Set: map[string]any{key: v}})
			if core.ErrorCode(err) != core.CodeLockedByPolicy {
				t.Errorf("%s %s=%v: %v, want locked_by_policy", layer, key, v, err)
			}
			if _, err := os.Stat(target.Path()); err == nil {
				t.Errorf("%s: %s was written", layer, target.Path())
			}
		}
	}
	if _, err := st.Write(Update{Set: map[string]any{KeyPermissionsDeny: []string{"web:example.com"}}}); err != nil {
		t.Fatal(err)
	}
	snap, err := st.Read()
	if err != nil {
		t.Fatal(err)
	}
	if e := snap.Gov.Decide(Rule{Kind: RuleWeb, Arg: "go.dev"}); e == nil || e.Verdict != "deny" || !e.Locked {
		t.Fatalf("go.dev decided by %+v, want the policy's deny", e)
	}
}
