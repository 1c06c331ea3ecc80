package apply

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// applyDiff applies a unified diff as Diff writes it, strictly: every
// context and deleted line must match the old text and every count must
// agree with its header.
func applyDiff(t testing.TB, old []byte, d string) string {
	t.Helper()
	if d == "" {
		return string(old)
	}
	src := splitLines(old)
	lines := strings.SplitAfter(d, "\n")
	if len(lines) < 2 || !strings.HasPrefix(lines[0], "--- ") || !strings.HasPrefix(lines[1], "+++ ") {
		t.Fatalf("no header: %q", d)
	}
	lines = lines[2:]
	var out strings.Builder
	pos := 0 // next line of src
	// next returns the content of the next hunk line and whether it has
	// no newline at the end.
	next := func() (byte, string) {
		if len(lines) == 0 || lines[0] == "" {
			t.Fatalf("hunk cut short in %q", d)
		}
		l := lines[0]
		lines = lines[1:]
		if len(lines) > 0 && strings.HasPrefix(lines[0], "\\ No newline at end of file\n") {
			lines = lines[1:]
			return l[0], strings.TrimSuffix(l[1:], "\n")
		}
		return l[0], l[1:]
	}
	for len(lines) > 0 && lines[0] != "" {
		hdr := strings.TrimSuffix(lines[0], "\n")
		lines = lines[1:]
		as, an, _, bn := parseHunkHeader(t, hdr)
		if an > 0 {
			as--
		}
		if as < pos || as > len(src) {
			t.Fatalf("hunk %q starts at %d, at line %d of %d", hdr, as, pos, len(src))
		}
		for _, l := range src[pos:as] {
			out.WriteString(l)
		}
		pos = as
		for an > 0 || bn > 0 {
			kind, text := next()
			switch {
			case kind == ' ' && an > 0 && bn > 0:
				an, bn = an-1, bn-1
			case kind == '-' && an > 0:
				an--
			case kind == '+' && bn > 0:
				bn--
				out.WriteString(text)
				continue
			default:
				t.Fatalf("unexpected line %q in hunk %q", text, hdr)
			}
			if pos >= len(src) || src[pos] != text {
				t.Fatalf("line %d is %q in the diff but not in the old text", pos+1, text)
			}
			if kind == ' ' {
				out.WriteString(text)
			}
			pos++
		}
	}
	for _, l := range src[pos:] {
		out.WriteString(l)
	}
	return out.String()
}

// parseHunkHeader reads "@@ -A[,N] +B[,M] @@[ note]".
func parseHunkHeader(t testing.TB, hdr string) (as, an, bs, bn int) {
	t.Helper()
	f := strings.Fields(hdr)
	if len(f) < 4 || f[0] != "@@" || f[3] != "@@" || f[1][0] != '-' || f[2][0] != '+' {
		t.Fatalf("bad hunk header %q", hdr)
	}
	rng := func(s string) (int, int) {
		start, count, ok := strings.Cut(s, ",")
		n := 1
		if ok {
			n = atoi(t, count)
		}
		return atoi(t, start), n
	}
	as, an = rng(f[1][1:])
	bs, bn = rng(f[2][1:])
	return
}

func atoi(t testing.TB, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("bad number %q in a hunk header", s)
	}
	return n
}

func checkScript(t *testing.T, a, b []string, ops []op) {
	t.Helper()
	var gotA, gotB []string
	for _, o := range ops {
		if o.kind != '+' {
			gotA = append(gotA, o.line)
		}
		if o.kind != '-' {
			gotB = append(gotB, o.line)
		}
	}
	if !slices.Equal(gotA, a) || !slices.Equal(gotB, b) {
		t.Fatalf("script does not map %q to %q: %v", a, b, ops)
	}
}

func changes(ops []op) int {
	n := 0
	for _, o := range ops {
		if o.kind != ' ' {
			n++
		}
	}
	return n
}

// randText is n lines drawn from alpha distinct ones.
func randText(r *rand.Rand, n, alpha int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("l%d\n", r.IntN(alpha))
	}
	return out
}

// mutate deletes, inserts and replaces a few lines of a.
func mutate(r *rand.Rand, a []string, alpha int) []string {
	out := slices.Clone(a)
	for range 1 + r.IntN(8) {
		i := r.IntN(len(out) + 1)
		switch r.IntN(3) {
		case 0:
			if i < len(out) {
				out = slices.Delete(out, i, i+1)
			}
		case 1:
			out = slices.Insert(out, i, fmt.Sprintf("l%d\n", r.IntN(alpha)))
		default:
			if i < len(out) {
				out[i] = "new\n"
			}
		}
	}
	return out
}
