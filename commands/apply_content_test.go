package commands

import (
	"fmt"
	"testing"
)

// padRight pads as fmt's %-*s does: by characters, never cutting.
func TestPadRightAsFmt(t *testing.T) {
	for _, s := range []string{"", "claude", "outdated", "é", "日本語", "\xff\xfe", "a\x1bb", "copilot-cli-long"} {
		for _, width := range []int{0, 1, 6, 8, 20} {
			if got, want := string(padRight([]byte("x"), s, width)), fmt.Sprintf("x%-*s", width, s); got != want {
				t.Errorf("padRight(%q, %d) = %q, fmt %q", s, width, got, want)
			}
		}
	}
}
