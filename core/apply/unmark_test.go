package apply

import (
	"bytes"
	"strings"
	"testing"

	"github.com/agentkit/charter/core/content"
	"github.com/agentkit/charter/core/projection"
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

// blockRulesLines is how the block's rules were written before
// writeBlockRules: a line each, as Render writes its lines.
func blockRulesLines(l Library) string {
	var b strings.Builder
	for _, r := range l.BlockRules {
		body := strings.TrimRight(string(r.Body), "\n")
		if len(r.Globs) > 0 {
			body = projection.GlobLine(r.Globs) + body
		}
		for _, line := range []string{"", "#### " + r.Name, "", unmarkLines(body)} {
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}

// The block's rules are written with each body copied once, byte for byte
// as a line each wrote them.
func FuzzWriteBlockRules(f *testing.F) {
	f.Add("style", "src/**", "Say why.\n")
	f.Add("x", "", BeginMarker+"\n  "+EndMarker+"\n\n")
	f.Add("y", "a`b\nc", "\n\n")
	f.Fuzz(func(t *testing.T, name, glob, body string) {
		r := content.Item{Name: name, Body: []byte(body)}
		if glob != "" {
			r.Globs = []string{glob, glob + "/x"}
		}
		l := Library{BlockRules: []content.Item{r, r}}
		var b bytes.Buffer
		l.writeBlockRules(&b)
		if got, want := b.String(), blockRulesLines(l); got != want {
			t.Fatalf("writeBlockRules = %q\nline by line %q", got, want)
		}
	})
}
