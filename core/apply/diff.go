package apply

import (
	"bytes"
	"fmt"
	"strings"
)

// contextLines is how many unchanged lines surround each change in a hunk.
const contextLines = 3

// costBudget bounds the work of one diff: the search may spend about
// costBudget line comparisons before it gives up on finding the shortest
// script and replaces the changed region as a whole. Files of a few
// thousand lines never reach it.
const costBudget = 1 << 28

// ReplacedNote labels a hunk whose region was replaced as a whole because
// a line-by-line comparison would cost too much. It stands where GNU diff
// puts a section heading, so patch tools still read the hunk.
const ReplacedNote = "replaced as a whole: too many changes to compare line by line"

// Diff returns a unified diff from a to b, or "" when they are equal.
// A nil a is a file that does not exist yet, shown as /dev/null.
//
// Time is O((N+M)·D) and memory O(N+M) for N and M lines and D changed
// lines; when D would exceed costBudget/(N+M), the changed region is shown
// as one hunk that deletes all of it and inserts the new text, labelled
// with ReplacedNote.
func Diff(name string, a, b []byte) string {
	return diff(name, a, b, costLimit)
}

// diff is Diff with the edit limit as a parameter, for tests.
func diff(name string, a, b []byte, limit func(n int) int) string {
	return diffAt(name, a, b, 0, limit)
}

// diffAt is diff for a and b that start after line lines of their file:
// the hunks are numbered as in the whole file.
func diffAt(name string, a, b []byte, line int, limit func(n int) int) string {
	if bytes.Equal(a, b) && (a == nil) == (b == nil) {
		return ""
	}
	from := name
	if a == nil {
		from = "/dev/null"
	}
	ops, whole := script(splitLines(a), splitLines(b), limit)
	note := ""
	if whole {
		note = ReplacedNote // a whole replacement is one run of changes: one hunk
	}
	hs := hunks(ops)
	for i := range hs {
		hs[i].aStart += line
		hs[i].bStart += line
	}
	size := len(from) + len(name) + 10
	for _, h := range hs {
		size += h.size(ops, note)
	}
	var sb strings.Builder
	sb.Grow(size)
	fmt.Fprintf(&sb, "--- %s\n+++ %s\n", from, name)
	for _, h := range hs {
		h.write(&sb, ops, note)
	}
	return sb.String()
}

// splitLines cuts after each newline; the last line may lack one.
func splitLines(b []byte) []string {
	out := make([]string, 0, bytes.Count(b, []byte{'\n'})+1)
	s := string(b) // one copy; the lines are slices of it
	for len(s) > 0 {
		i := strings.IndexByte(s, '\n') + 1
		if i == 0 {
			i = len(s)
		}
		out = append(out, s[:i])
		s = s[i:]
	}
	return out
}

// op is one line of an edit script: ' ' kept, '-' deleted, '+' inserted.
type op struct {
	kind byte
	line string
}

// edits is a shortest edit script from a to b.
func edits(a, b []string) []op {
	ops, _ := script(a, b, func(int) int { return -1 })
	return ops
}

// costLimit is the largest edit distance searched for n lines in all.
func costLimit(n int) int {
	return max(costBudget/max(n, 1), 64)
}

// script is an edit script from a to b: the shortest one (Myers, "An O(ND)
// Difference Algorithm and Its Variations", 1986, with the linear-space
// refinement of section 4b), unless it needs more than limit(n) edits for
// the n lines left after the common prefix and suffix (a negative limit is
// none). Then the rest is deleted and inserted as a whole and whole is true.
func script(a, b []string, limit func(n int) int) (ops []op, whole bool) {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	ops = make([]op, 0, len(a)+len(b)-pre-suf)
	for _, l := range a[:pre] {
		ops = append(ops, op{' ', l})
	}
	midA, midB := a[pre:len(a)-suf], b[pre:len(b)-suf]
	m := newMyers(midA, midB, limit(len(midA)+len(midB)))
	if m.run(&ops) {
		for _, l := range midA {
			ops = append(ops, op{'-', l})
		}
		for _, l := range midB {
			ops = append(ops, op{'+', l})
		}
		whole = true
	}
	for _, l := range a[len(a)-suf:] {
		ops = append(ops, op{' ', l})
	}
	return ops, whole
}

// myers finds a shortest edit script in memory linear in the input: it
// searches from both ends at once for the middle of an optimal path, then
// solves the two halves the same way.
type myers struct {
	al, bl []string // the lines, for the ops
	a, b   []int32  // the lines as numbers: equal lines, equal numbers
	limit  int      // most edits the first search may find; <0 no limit
	vf, vb []int    // furthest reaching x per diagonal, forward and backward
}

func newMyers(al, bl []string, limit int) *myers {
	ids := make(map[string]int32, len(al))
	intern := func(lines []string) []int32 {
		out := make([]int32, len(lines))
		for i, l := range lines {
			id, ok := ids[l]
			if !ok {
				id = int32(len(ids))
				ids[l] = id
			}
			out[i] = id
		}
		return out
	}
	m := &myers{al: al, bl: bl, a: intern(al), b: intern(bl), limit: limit}
	// A search for d edits uses diagonals -d-1…d+1 in each direction.
	half := (len(al)+len(bl)+1)/2 + 1
	if limit >= 0 {
		half = min(half, limit/2+2)
	}
	m.vf, m.vb = make([]int, 2*half+2), make([]int, 2*half+2)
	return m
}

// run appends the script to ops, or reports that the first search passed
// the limit (and appends nothing).
func (m *myers) run(ops *[]op) (tooCostly bool) {
	n, k := len(m.a), len(m.b)
	if n > 0 && k > 0 {
		x, y, ok := m.middle(0, n, 0, k, m.limit)
		if !ok {
			return true
		}
		m.compare(ops, 0, x, 0, y)
		m.compare(ops, x, n, y, k)
		return false
	}
	m.compare(ops, 0, n, 0, k)
	return false
}

// compare appends the script for a[a0:a1] → b[b0:b1]. Each half of a split
// needs at most half the edits of the whole, so recursion is O(log D) deep.
func (m *myers) compare(ops *[]op, a0, a1, b0, b1 int) {
	for a0 < a1 && b0 < b1 && m.a[a0] == m.b[b0] {
		*ops = append(*ops, op{' ', m.al[a0]})
		a0, b0 = a0+1, b0+1
	}
	suf := 0
	for a1-suf > a0 && b1-suf > b0 && m.a[a1-1-suf] == m.b[b1-1-suf] {
		suf++
	}
	a1, b1 = a1-suf, b1-suf
	switch {
	case a0 == a1:
		for _, l := range m.bl[b0:b1] {
			*ops = append(*ops, op{'+', l})
		}
	case b0 == b1:
		for _, l := range m.al[a0:a1] {
			*ops = append(*ops, op{'-', l})
		}
	default:
		x, y, _ := m.middle(a0, a1, b0, b1, -1)
		m.compare(ops, a0, x, b0, y)
		m.compare(ops, x, a1, y, b1)
	}
	for i := a1; i < a1+suf; i++ {
		*ops = append(*ops, op{' ', m.al[i]})
	}
}

// middle returns a point (x, y) on a shortest path from (a0, b0) to
// (a1, b1), at the end of its middle snake, so that each side needs at most
// half of the edits. Both ranges must be non-empty and differ at both
// ends. ok is false when the path needs more than limit edits (limit >= 0).
func (m *myers) middle(a0, a1, b0, b1, limit int) (x, y int, ok bool) {
	n, k := a1-a0, b1-b0
	a, b := m.a[a0:a1], m.b[b0:b1]
	delta := n - k
	odd := delta&1 != 0
	// A shortest path meets within (n+k+1)/2 rounds. The buffers are sized
	// for the first search's limit, which bounds every later search too.
	maxD := min((n+k+1)/2, (len(m.vf)-3)/2)
	off := maxD + 1 // vf[off+diag] is diagonal diag
	vf, vb := m.vf[:2*off+1], m.vb[:2*off+1]
	for i := range vf {
		vf[i], vb[i] = -1, -1
	}
	vf[off+1], vb[off+1] = 0, 0
	// Diagonals that ran off the grid are skipped from then on.
	fLo, fHi, bLo, bHi := 0, 0, 0, 0
	for d := 0; d <= maxD; d++ {
		if limit >= 0 && 2*d-1 > limit {
			return 0, 0, false
		}
		// Forward: vf[diag] is the furthest x on diagonal x-y = diag.
		for diag := -d + fLo; diag <= d-fHi; diag += 2 {
			i := off + diag
			var px int
			if diag == -d || (diag != d && vf[i-1] < vf[i+1]) {
				px = vf[i+1]
			} else {
				px = vf[i-1] + 1
			}
			py := px - diag
			for px < n && py < k && a[px] == b[py] {
				px, py = px+1, py+1
			}
			vf[i] = px
			switch {
			case px > n:
				fHi += 2
			case py > k:
				fLo += 2
			case odd:
				// The backward search has done d-1 edits: meet it?
				j := off + delta - diag
				if j >= 0 && j < len(vb) && vb[j] != -1 && px >= n-vb[j] {
					return a0 + px, b0 + py, true
				}
			}
		}
		// Backward: vb[diag] is the furthest x from the end on the reversed
		// inputs' diagonal diag, which is delta-diag forward.
		for diag := -d + bLo; diag <= d-bHi; diag += 2 {
			i := off + diag
			var px int
			if diag == -d || (diag != d && vb[i-1] < vb[i+1]) {
				px = vb[i+1]
			} else {
				px = vb[i-1] + 1
			}
			py := px - diag
			for px < n && py < k && a[n-1-px] == b[k-1-py] {
				px, py = px+1, py+1
			}
			vb[i] = px
			switch {
			case px > n:
				bHi += 2
			case py > k:
				bLo += 2
			case !odd:
				// Both searches have done d edits: meet the forward one?
				j := off + delta - diag
				if j >= 0 && j < len(vf) && vf[j] != -1 && vf[j] >= n-px {
					fx := vf[j]
					return a0 + fx, b0 + fx - (delta - diag), true
				}
			}
		}
	}
	if limit >= 0 {
		return 0, 0, false
	}
	panic("unreachable: the searches meet within the rounds the buffers hold")
}

// hunk is a range of ops and where it starts in each file (0-based).
type hunk struct{ from, to, aStart, bStart int }

// hunks groups changes with their context; changes with at most twice the
// context between them share one hunk, as in GNU diff.
func hunks(ops []op) []hunk {
	var out []hunk
	aPos, bPos := 0, 0 // lines of a and b before ops[i]
	i := 0
	advance := func(to int) {
		for ; i < to; i++ {
			if ops[i].kind != '+' {
				aPos++
			}
			if ops[i].kind != '-' {
				bPos++
			}
		}
	}
	for j := 0; j < len(ops); j++ {
		if ops[j].kind == ' ' {
			continue
		}
		last := j
		for k := j + 1; k < len(ops) && k-last-1 <= 2*contextLines; k++ {
			if ops[k].kind != ' ' {
				last = k
			}
		}
		from := max(j-contextLines, 0)
		advance(from)
		h := hunk{from: from, to: min(last+1+contextLines, len(ops)), aStart: aPos, bStart: bPos}
		out = append(out, h)
		j = h.to - 1
	}
	return out
}

// size is about how many bytes write prints, never less.
func (h hunk) size(ops []op, note string) int {
	n := 64 + len(note) // the header
	for _, o := range ops[h.from:h.to] {
		n += 1 + len(o.line)
		if !strings.HasSuffix(o.line, "\n") {
			n += 1 + len(noNewline)
		}
	}
	return n
}

const noNewline = "\\ No newline at end of file\n"

// write prints the hunk; a non-empty note follows the ranges on its header.
func (h hunk) write(sb *strings.Builder, ops []op, note string) {
	var an, bn int
	for _, o := range ops[h.from:h.to] {
		if o.kind != '+' {
			an++
		}
		if o.kind != '-' {
			bn++
		}
	}
	fmt.Fprintf(sb, "@@ -%s +%s @@", rangeText(h.aStart, an), rangeText(h.bStart, bn))
	if note != "" {
		sb.WriteString(" " + note)
	}
	sb.WriteByte('\n')
	for _, o := range ops[h.from:h.to] {
		sb.WriteByte(o.kind)
		sb.WriteString(o.line)
		if !strings.HasSuffix(o.line, "\n") {
			sb.WriteByte('\n')
			sb.WriteString(noNewline)
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
