package apply

import (
	"strings"
	"testing"
)

// unmarkLines is unmark without its fast path: every line looked at.
func unmarkLines(body string) string {
	lines := strings.Split(body, "\n")
	for i, l := range lines {
		if marker([]byte(l), BeginMarker) || marker([]byte(l), EndMarker) {
			lines[i] = "\\" + strings.TrimLeft(l, " \t")
		}
	}
	return strings.Join(lines, "\n")
}

// A rule's line that reads as a marker is escaped; a body with none is
// returned as it is, whatever the fast path skips.
func FuzzUnmark(f *testing.F) {
	for _, s := range []string{"", "plain", BeginMarker, " " + EndMarker + "\t", "a\n" + BeginMarker + "\nb\n" + EndMarker,
		"<!-- charter:beginx -->", "x <!-- charter:end -->", "\t<!-- charter:end -->\r", "<!-- charter:\n-->"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		if got, want := unmark(body), unmarkLines(body); got != want {
			t.Fatalf("unmark(%q) = %q, every line looked at gives %q", body, got, want)
		}
	})
}

func TestUnmarkEscapesMarkers(t *testing.T) {
	body := "keep\n  " + EndMarker + "\n" + BeginMarker + " \nend"
	want := "keep\n\\" + EndMarker + "\n\\" + BeginMarker + " \nend"
	if got := unmark(body); got != want {
		t.Fatalf("unmark = %q, want %q", got, want)
	}
}
