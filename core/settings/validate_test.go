package settings

import (
	"strings"
	"testing"

	"github.com/agentkit/charter/core"
)

func TestValidate(t *testing.T) {
	const path = "/s/settings.yaml"
	for _, tc := range []struct {
		name string
		data string
		want []string // substrings of the error, in order; none: valid
	}{
		{"empty", "", nil},
		{"comments only", "# nothing yet\n", nil},
		{"valid, unknown key kept", "rules:\n  tier: full\ncustom: 1\n", nil},
		{"one bad value", "rules:\n  tier: extreme\n", []string{path + ":2: rules.tier: \"extreme\" is not allowed"}},
		{"every bad value", "rules:\n  tier: extreme\ngates:\n  coverage:\n    min: 150\n  on_failure: maybe\n",
			[]string{path + ":2: rules.tier", path + ":5: gates.coverage.min", path + ":6: gates.on_failure"}},
		{"syntax", "rules:\n  tier: [full\n", []string{path + ":"}},
		{"not a mapping", "- a\n", []string{path + ":1: the top level must be a mapping"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Validate(path, []byte(tc.data))
			if len(tc.want) == 0 {
				if err != nil {
					t.Fatalf("want valid, got %v", err)
				}
				return
			}
			if err == nil {
				t.Fatal("want an error")
			}
			if code := core.ErrorCode(err); code != core.CodeMalformedSettings {
				t.Errorf("code %q, want %q", code, core.CodeMalformedSettings)
			}
			msg, at := err.Error(), 0
			for _, w := range tc.want {
				i := strings.Index(msg[at:], w)
				if i < 0 {
					t.Fatalf("error %q lacks %q (in order)", msg, w)
				}
				at += i + len(w)
			}
		})
	}
}
