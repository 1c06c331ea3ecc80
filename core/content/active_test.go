package content

import "testing"

// Effective sorts kinds in the order Kinds lists them.
func TestKindRankIsKindsOrder(t *testing.T) {
	for i, k := range Kinds() {
		if kindRank(k) != i {
			t.Errorf("kindRank(%s) = %d, want %d", k, kindRank(k), i)
		}
	}
}
