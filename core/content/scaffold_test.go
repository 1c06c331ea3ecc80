package content

import "testing"

// Every scaffold is a valid item of its kind.
func TestScaffoldParses(t *testing.T) {
	for _, k := range Kinds() {
		it, ps := Parse(k, "my-item", "/x", Scaffold(k, "my-item"), []string{"claude"})
		if len(ps) > 0 || it.Description == "" {
			t.Errorf("%s: %v", k, ps)
		}
	}
}
