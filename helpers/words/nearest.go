// Package words holds the text helpers every layer shares: the "did you mean"
// of a typo.
package words

// Nearest returns the candidate closest to s by edit distance when one is
// close enough to be a likely typo (at most a quarter of s, and at least
// 2, edits away), else "". Ties go to the earlier candidate. Every "did
// you mean" of charter's, for keys, flags and commands, asks it.
func Nearest(s string, candidates []string) string {
	best, bestDist := "", max(2, len(s)/4)+1
	for _, c := range candidates {
		if d := levenshtein(s, c); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

func levenshtein(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
