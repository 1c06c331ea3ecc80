package apply

import (
	"bytes"
	"fmt"
	"strings"
)

// contextLines is how many unchanged lines surround each change in a hunk.
const contextLines = 3

// Diff returns a unified diff from a to b, or "" when they are equal.
// A nil a is a file that does not exist yet, shown as /dev/null.
func Diff(name string, a, b []byte) string {
	if bytes.Equal(a, b) && (a == nil) == (b == nil) {
		return ""
	}
	from := name
	if a == nil {
		from = "/dev/null"
	}
	ops := edits(splitLines(a), splitLines(b))
	var sb strings.Builder
	fmt.Fprintf(&sb, "--- %s\n+++ %s\n", from, name)
	for _, h := range hunks(ops) {
		h.write(&sb, ops)
	}
	return sb.String()
}

// splitLines cuts after each newline; the last line may lack one.
func splitLines(b []byte) []string {
	var out []string
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n') + 1
		if i == 0 {
			i = len(b)
		}
		out = append(out, string(b[:i]))
		b = b[i:]
	}
	return out
}

// op is one line of an edit script: ' ' kept, '-' deleted, '+' inserted.
type op struct {
	kind byte
	line string
}

// edits is a shortest edit script from a to b (Myers, "An O(ND) Difference
// Algorithm"). The common prefix and suffix are taken off first: apply
// changes one block, so what is left for the search is small.
func edits(a, b []string) []op {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var ops []op
	for _, l := range a[:pre] {
		ops = append(ops, op{' ', l})
	}
	ops = append(ops, myers(a[pre:len(a)-suf], b[pre:len(b)-suf])...)
	for _, l := range a[len(a)-suf:] {
		ops = append(ops, op{' ', l})
	}
	return ops
}

func myers(a, b []string) []op {
	n, m := len(a), len(b)
	max := n + m
	if max == 0 {
		return nil
	}
	off := max + 1
	v := make([]int, 2*max+3) // v[off+k]: furthest x on diagonal k
	// trace[d] holds v[k] for k in [-d-1, d+1] as it was before round d.
	var trace [][]int
	for d := 0; d <= max; d++ {
		trace = append(trace, append([]int(nil), v[off-d-1:off+d+2]...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1] // down: an insertion
			} else {
				x = v[off+k-1] + 1 // right: a deletion
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x, y = x+1, y+1
			}
			v[off+k] = x
			if x >= n && y >= m {
				return backtrack(a, b, trace)
			}
		}
	}
	panic("unreachable: the edit script is at most n+m long")
}

// backtrack walks the trace from the end to the start and builds the script.
func backtrack(a, b []string, trace [][]int) []op {
	x, y := len(a), len(b)
	var rev []op
	for d := len(trace) - 1; d >= 0; d-- {
		w := trace[d]
		at := func(k int) int { return w[k+d+1] }
		k := x - y
		prevK := k - 1
		if k == -d || (k != d && at(k-1) < at(k+1)) {
			prevK = k + 1
		}
		prevX := at(prevK)
		prevY := prevX - prevK
		for x > prevX && y > prevY {
			x, y = x-1, y-1
			rev = append(rev, op{' ', a[x]})
		}
		if d == 0 {
			break
		}
		if x == prevX {
			rev = append(rev, op{'+', b[prevY]})
		} else {
			rev = append(rev, op{'-', a[prevX]})
		}
		x, y = prevX, prevY
	}
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	return rev
}

// hunk is a range of ops and where it starts in each file (0-based).
type hunk struct{ from, to, aStart, bStart int }

// hunks groups changes with their context; changes with at most twice the
// context between them share one hunk, as in GNU diff.
func hunks(ops []op) []hunk {
	// aPos[i], bPos[i]: lines of a and b that come before ops[i].
	aPos, bPos := make([]int, len(ops)+1), make([]int, len(ops)+1)
	for i, o := range ops {
		aPos[i+1], bPos[i+1] = aPos[i], bPos[i]
		if o.kind != '+' {
			aPos[i+1]++
		}
		if o.kind != '-' {
			bPos[i+1]++
		}
	}
	var out []hunk
	for i := 0; i < len(ops); i++ {
		if ops[i].kind == ' ' {
			continue
		}
		last := i
		for j := i + 1; j < len(ops) && j-last-1 <= 2*contextLines; j++ {
			if ops[j].kind != ' ' {
				last = j
			}
		}
		from := max(i-contextLines, 0)
		h := hunk{from: from, to: min(last+1+contextLines, len(ops)), aStart: aPos[from], bStart: bPos[from]}
		out = append(out, h)
		i = h.to - 1
	}
	return out
}

func (h hunk) write(sb *strings.Builder, ops []op) {
	var an, bn int
	for _, o := range ops[h.from:h.to] {
		if o.kind != '+' {
			an++
		}
		if o.kind != '-' {
			bn++
		}
	}
	fmt.Fprintf(sb, "@@ -%s +%s @@\n", rangeText(h.aStart, an), rangeText(h.bStart, bn))
	for _, o := range ops[h.from:h.to] {
		sb.WriteByte(o.kind)
		sb.WriteString(o.line)
		if !strings.HasSuffix(o.line, "\n") {
			sb.WriteString("\n\\ No newline at end of file\n")
		}
	}
}

// rangeText is a hunk range as GNU diff writes it: the count is left out
// when it is 1, and an empty range names the line before it.
func rangeText(start, n int) string {
	switch n {
	case 0:
		return fmt.Sprintf("%d,0", start)
	case 1:
		return fmt.Sprintf("%d", start+1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}
