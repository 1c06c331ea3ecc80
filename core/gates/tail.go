package gates

import (
	"bytes"
	"strings"
	"sync"
)

// TailLines is how many of a gate's last output lines a report keeps.
const TailLines = 40

// maxLineBytes caps one kept line; the rest of a longer line is dropped and
// the line ends with truncMark. A gate that prints a gigabyte on one line
// costs no more memory than one that prints forty short ones.
const maxLineBytes = 2048

const truncMark = " …[line truncated]"

// tail keeps the last TailLines lines written to it, in a fixed ring.
type tail struct {
	mu      sync.Mutex
	ring    [TailLines]string
	next    int // where the next line goes
	n       int // lines in the ring
	cur     []byte
	curLong bool // cur lost bytes beyond maxLineBytes
	onLine  func(string)
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		chunk := p
		if i >= 0 {
			chunk = p[:i]
		}
		if room := maxLineBytes - len(t.cur); len(chunk) > room {
			t.cur = append(t.cur, chunk[:max(room, 0)]...)
			t.curLong = true
		} else {
			t.cur = append(t.cur, chunk...)
		}
		if i < 0 {
			break
		}
		t.endLine()
		p = p[i+1:]
	}
	return n, nil
}

// endLine moves the current line into the ring.
func (t *tail) endLine() {
	s := strings.ToValidUTF8(string(bytes.TrimSuffix(t.cur, []byte("\r"))), "\uFFFD")
	if t.curLong {
		s += truncMark
	}
	t.cur, t.curLong = t.cur[:0], false
	t.ring[t.next] = s
	t.next = (t.next + 1) % TailLines
	t.n = min(t.n+1, TailLines)
	if t.onLine != nil {
		t.onLine(s)
	}
}

// detach stops forwarding lines to onLine.
func (t *tail) detach() {
	t.mu.Lock()
	t.onLine = nil
	t.mu.Unlock()
}

// Lines returns the kept lines, oldest first, with an unfinished last line
// (output that does not end in a newline) as the last one. Never nil.
func (t *tail) Lines() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.cur) > 0 || t.curLong {
		t.endLine()
	}
	out := make([]string, 0, t.n)
	for i := range t.n {
		out = append(out, t.ring[(t.next-t.n+i+TailLines)%TailLines])
	}
	return out
}
