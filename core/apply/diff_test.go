package apply

import (
	"math/rand/v2"
	"strings"
	"testing"
)

func TestDiff(t *testing.T) {
	tests := []struct {
		name string
		a    []byte
		b    string
		want string
	}{
		{"equal", []byte("a\nb\n"), "a\nb\n", ""},
		{"new file", nil, "a\nb\n", "--- /dev/null\n+++ F\n@@ -0,0 +1,2 @@\n+a\n+b\n"},
		{"empty file gets content", []byte{}, "a\n", "--- F\n+++ F\n@@ -0,0 +1 @@\n+a\n"},
		{"change in the middle", []byte("1\n2\n3\n4\n5\n6\n7\n8\n9\n"), "1\n2\n3\n4\nfive\n6\n7\n8\n9\n",
			"--- F\n+++ F\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n"},
		{"two hunks", []byte("a\n1\n2\n3\n4\n5\n6\n7\n8\nb\n"), "A\n1\n2\n3\n4\n5\n6\n7\n8\nB\n",
			"--- F\n+++ F\n@@ -1,4 +1,4 @@\n-a\n+A\n 1\n 2\n 3\n@@ -7,4 +7,4 @@\n 6\n 7\n 8\n-b\n+B\n"},
		{"close changes share a hunk", []byte("a\n1\n2\n3\n4\n5\n6\nb\n"), "A\n1\n2\n3\n4\n5\n6\nB\n",
			"--- F\n+++ F\n@@ -1,8 +1,8 @@\n-a\n+A\n 1\n 2\n 3\n 4\n 5\n 6\n-b\n+B\n"},
		{"no newline at end", []byte("a\nb"), "a\nb\n\nc\n",
			"--- F\n+++ F\n@@ -1,2 +1,4 @@\n a\n-b\n\\ No newline at end of file\n+b\n+\n+c\n"},
		{"delete all", []byte("a\n"), "", "--- F\n+++ F\n@@ -1 +0,0 @@\n-a\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Diff("F", tt.a, []byte(tt.b)); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// The edit script must turn a into b and be as short as the longest common
// subsequence allows.
func TestEditsMinimal(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 500; i++ {
		a, b := randLines(r), randLines(r)
		ops := edits(a, b)
		var gotA, gotB []string
		n := 0
		for _, o := range ops {
			if o.kind != '+' {
				gotA = append(gotA, o.line)
			}
			if o.kind != '-' {
				gotB = append(gotB, o.line)
			}
			if o.kind != ' ' {
				n++
			}
		}
		if strings.Join(gotA, "") != strings.Join(a, "") || strings.Join(gotB, "") != strings.Join(b, "") {
			t.Fatalf("script does not map %q to %q: %v", a, b, ops)
		}
		if want := len(a) + len(b) - 2*lcs(a, b); n != want {
			t.Fatalf("%q → %q: %d edits, want %d", a, b, n, want)
		}
	}
}

func randLines(r *rand.Rand) []string {
	out := make([]string, r.IntN(12))
	for i := range out {
		out[i] = string(rune('a'+r.IntN(3))) + "\n"
	}
	return out
}

func lcs(a, b []string) int {
	dp := make([][]int, len(a)+1)
	for i := range dp {
		dp[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				dp[i][j] = dp[i+1][j+1] + 1
			} else {
				dp[i][j] = max(dp[i+1][j], dp[i][j+1])
			}
		}
	}
	return dp[0][0]
}
