package apply

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
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

// Larger inputs than TestEditsMinimal, so that the middle-snake search
// splits several times, with few and many distinct lines.
func TestEditsMinimalSplits(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 300; i++ {
		alpha := 2 + r.IntN(20)
		a, b := randText(r, r.IntN(120), alpha), randText(r, r.IntN(120), alpha)
		if r.IntN(2) == 0 { // b a mutation of a: the usual case for apply
			b = mutate(r, a, alpha)
		}
		ops := edits(a, b)
		checkScript(t, a, b, ops)
		if got, want := changes(ops), len(a)+len(b)-2*lcs(a, b); got != want {
			t.Fatalf("%q → %q: %d edits, want %d", a, b, got, want)
		}
	}
}

// Above the limit the changed region is deleted and inserted as a whole,
// between the unchanged lines around it, and the hunk says so.
func TestDiffReplacedWhole(t *testing.T) {
	a := []byte("keep\n1\n2\n3\n4\ntail\n")
	b := []byte("keep\nx\n2\ny\ntail\n")
	limit := func(int) int { return 2 }
	want := "--- F\n+++ F\n@@ -1,6 +1,5 @@ " + ReplacedNote + "\n keep\n-1\n-2\n-3\n-4\n+x\n+2\n+y\n tail\n"
	if got := diff("F", a, b, limit); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// Within the limit the same change is found line by line.
	got := diff("F", a, b, func(int) int { return 5 })
	if strings.Contains(got, ReplacedNote) || !strings.Contains(got, " 2\n") {
		t.Errorf("within the limit:\n%s", got)
	}
	if got := applyDiff(t, a, diff("F", a, b, limit)); got != string(b) {
		t.Errorf("the whole replacement does not apply: %q", got)
	}
}

// The default limit never cuts a diff of a file of ordinary size short.
func TestDiffSmallFilesExact(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	a := randText(r, 2000, 50)
	b := make([]string, len(a))
	for i := range a { // every line changed: the most a diff can cost
		b[i] = "new " + a[i]
	}
	d := Diff("F", []byte(strings.Join(a, "")), []byte(strings.Join(b, "")))
	if strings.Contains(d, ReplacedNote) {
		t.Fatalf("a 2,000-line file was replaced as a whole")
	}
}

// The 40,000-line block of issue 11: a diff that once needed gigabytes now
// stays within a budget linear in the input: three copies of the text (the
// lines, the output and slack) and 128 bytes a line for the line table,
// the numbering and the edit script.
func TestDiffMemoryBudget(t *testing.T) {
	for _, c := range bigCases() {
		t.Run(c.name, func(t *testing.T) {
			lines := bytes.Count(c.a, []byte("\n")) + bytes.Count(c.b, []byte("\n"))
			budget := uint64(3*(len(c.a)+len(c.b)) + 128*lines)
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			d := Diff("CLAUDE.md", c.a, c.b)
			runtime.ReadMemStats(&after)
			used := after.TotalAlloc - before.TotalAlloc
			t.Logf("%d lines, %d bytes: allocated %d bytes (budget %d)", lines, len(c.a)+len(c.b), used, budget)
			if used > budget {
				t.Errorf("allocated %d bytes, budget %d", used, budget)
			}
			if strings.Contains(d, ReplacedNote) != c.whole {
				t.Errorf("replaced as a whole: %v, want %v", !c.whole, c.whole)
			}
			if got := applyDiff(t, c.a, d); got != string(c.b) {
				t.Error("the diff does not turn the old text into the new one")
			}
		})
	}
}

func BenchmarkDiff40000(b *testing.B) {
	for _, c := range bigCases() {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(c.a) + len(c.b)))
			for b.Loop() {
				Diff("CLAUDE.md", c.a, c.b)
			}
		})
	}
}

type bigCase struct {
	name  string
	a, b  []byte
	whole bool // expect the whole-block replacement
}

// bigCases are CLAUDE.md files whose block holds 40,000 lines (~430 KB).
func bigCases() []bigCase {
	const n = 40000
	wrap := func(lines []string) []byte {
		return []byte("# My notes\n\nKeep this.\n\n" + BeginMarker + "\n" + strings.Join(lines, "") + EndMarker + "\n\nMore of mine.\n")
	}
	huge := make([]string, n)
	for i := range huge {
		huge[i] = fmt.Sprintf("item %05d\n", i)
	}
	rendered := make([]string, 40)
	for i := range rendered {
		rendered[i] = fmt.Sprintf("- rule %d: keep the tests green\n", i)
	}
	sparse := slices.Clone(huge) // one line in 500 changed
	for i := 0; i < n; i += 500 {
		sparse[i] = "changed\n"
	}
	r := rand.New(rand.NewPCG(7, 8))
	noiseA, noiseB := randText(r, n, 4), randText(r, n, 4)
	return []bigCase{
		{"block replaced", wrap(huge), wrap(rendered), true},
		{"sparse changes", wrap(huge), wrap(sparse), false},
		{"unrelated with common lines", wrap(noiseA), wrap(noiseB), true},
	}
}

// Whatever the two texts, the diff applies to the old one and yields the
// new one, also when the limit forces a whole replacement.
func FuzzDiff(f *testing.F) {
	for _, s := range [][2]string{
		{"", ""}, {"a\n", ""}, {"", "a"}, {"a\nb", "a\nb\n"}, {"a\r\nb\r\n", "a\nb\n"},
		{"1\n2\n3\n4\n5\n6\n7\n8\n9\n", "1\n2\n3\n4\nfive\n6\n7\n8\n9\n"},
		{"a\nb\nc\na\nb\nb\na\n", "c\nb\na\nb\na\nc\n"},
		{"@@ -1 +1 @@\n", "\\ No newline at end of file\n"},
	} {
		f.Add([]byte(s[0]), []byte(s[1]), uint8(0))
	}
	f.Fuzz(func(t *testing.T, a, b []byte, limit uint8) {
		lim := costLimit
		if limit > 0 {
			lim = func(int) int { return int(limit) - 1 }
		}
		d := diff("F", a, b, lim)
		if bytes.Equal(a, b) {
			if d != "" {
				t.Fatalf("equal texts, diff %q", d)
			}
			return
		}
		if got := applyDiff(t, a, d); got != string(b) {
			t.Fatalf("%q patched with\n%s\ngives %q, want %q", a, d, got, b)
		}
	})
}
