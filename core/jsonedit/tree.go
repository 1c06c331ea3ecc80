// Package jsonedit edits JSON files people keep by hand, byte for byte:
// an edit splices the original bytes instead of re-encoding the document
// (encoding/json's maps lose key order, number spelling and spacing), so
// every byte outside the edit stays as it was, and new text copies the
// file's own indentation, line endings and spacing. Apply keeps its
// entries in agents' JSON files with it (Claude Code's settings.json,
// Codex's hooks.json, a project's .mcp.json).
package jsonedit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Node is one JSON value with its byte offsets: data[Start:End].
type Node struct {
	Kind       byte // '{', '[', '"', or 'v' for a number or literal
	Start, End int
	Members    []*Member // of an object, in file order (duplicates kept)
	Elems      []*Node   // of an array
}

// Member is one key of an object and its value.
type Member struct {
	Key              string
	KeyStart, KeyEnd int // the quoted key's bytes
	Val              *Node
}

// Member returns the last member named key (of duplicates, the last
// counts, as in most readers), or nil.
func (n *Node) Member(key string) *Member {
	if n == nil || n.Kind != '{' {
		return nil
	}
	for i := len(n.Members) - 1; i >= 0; i-- {
		if n.Members[i].Key == key {
			return n.Members[i]
		}
	}
	return nil
}

// Lookup follows keys down nested objects and returns the member the last
// one names, or nil when one is missing or not inside an object.
func (n *Node) Lookup(keys ...string) *Member {
	var m *Member
	for _, k := range keys {
		if m = n.Member(k); m == nil {
			return nil
		}
		n = m.Val
	}
	return m
}

// Duplicate returns the first member whose key an earlier member of the
// object has, or nil: for callers that refuse to guess which one counts.
func (n *Node) Duplicate() *Member {
	seen := map[string]bool{}
	for _, m := range n.Members {
		if seen[m.Key] {
			return m
		}
		seen[m.Key] = true
	}
	return nil
}

// MemberIndex and ElemIndex give a child's position, -1 when absent.
func (n *Node) MemberIndex(m *Member) int {
	for i, x := range n.Members {
		if x == m {
			return i
		}
	}
	return -1
}

func (n *Node) ElemIndex(e *Node) int {
	for i, x := range n.Elems {
		if x == e {
			return i
		}
	}
	return -1
}

// count is the number of an object's members or an array's elements.
func (n *Node) count() int {
	if n.Kind == '{' {
		return len(n.Members)
	}
	return len(n.Elems)
}

func (n *Node) childStart(i int) int {
	if n.Kind == '{' {
		return n.Members[i].KeyStart
	}
	return n.Elems[i].Start
}

func (n *Node) childEnd(i int) int {
	if n.Kind == '{' {
		return n.Members[i].Val.End
	}
	return n.Elems[i].End
}

// Fail builds the caller's error for a problem at byte offset off of the
// file, so each file keeps its own error type and code.
type Fail func(off int, msg string) error

// maxNesting bounds recursion; the files edited nest a handful of levels.
const maxNesting = 512

// Parse checks that data is exactly one JSON value and returns its tree.
func Parse(data []byte, fail Fail) (*Node, error) {
	if err := valid(data, fail); err != nil {
		return nil, err
	}
	p := &parser{data: data, fail: fail}
	p.ws()
	return p.value(0)
}

// valid reports the first syntax error with its offset. Values are decoded
// as encoding/json reads them, so a number it cannot hold is refused too.
func valid(data []byte, fail Fail) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	var v any
	err := dec.Decode(&v)
	if err == nil {
		if _, err = dec.Token(); errors.Is(err, io.EOF) {
			return nil
		}
		if err == nil {
			return fail(int(dec.InputOffset()), "the file holds more than one JSON value")
		}
	}
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off := int(se.Offset)
		if off > 0 {
			off-- // Offset counts the byte that made it fail
		}
		if commentAt(data, off) >= 0 {
			return fail(off, "a comment, which the agent does not allow in this file (it reads plain JSON): take the comment out")
		}
		return fail(off, se.Error())
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return fail(len(data), "the JSON ends too early")
	case errors.As(err, &te):
		return fail(int(te.Offset), err.Error())
	}
	return fail(0, err.Error())
}

type parser struct {
	data []byte
	pos  int
	fail Fail
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func (p *parser) ws() {
	for p.pos < len(p.data) && isSpace(p.data[p.pos]) {
		p.pos++
	}
}

func (p *parser) peek() byte {
	if p.pos < len(p.data) {
		return p.data[p.pos]
	}
	return 0
}

// value reads the value at pos; valid has accepted the whole document, so
// the checks here only guard against a disagreement between the two.
func (p *parser) value(depth int) (*Node, error) {
	if depth > maxNesting {
		return nil, p.fail(p.pos, fmt.Sprintf("nested deeper than %d levels", maxNesting))
	}
	n := &Node{Start: p.pos}
	switch p.peek() {
	case '{':
		n.Kind = '{'
		if err := p.list('}', func() error {
			m := &Member{KeyStart: p.pos}
			if p.peek() != '"' {
				return p.fail(p.pos, "expected a key")
			}
			if err := p.str(); err != nil {
				return err
			}
			m.KeyEnd = p.pos
			if err := json.Unmarshal(p.data[m.KeyStart:m.KeyEnd], &m.Key); err != nil {
				return p.fail(m.KeyStart, "invalid key")
			}
			p.ws()
			if p.peek() != ':' {
				return p.fail(p.pos, "expected ':'")
			}
			p.pos++
			p.ws()
			v, err := p.value(depth + 1)
			m.Val = v
			n.Members = append(n.Members, m)
			return err
		}); err != nil {
			return nil, err
		}
	case '[':
		n.Kind = '['
		if err := p.list(']', func() error {
			v, err := p.value(depth + 1)
			n.Elems = append(n.Elems, v)
			return err
		}); err != nil {
			return nil, err
		}
	case '"':
		n.Kind = '"'
		if err := p.str(); err != nil {
			return nil, err
		}
	default:
		n.Kind = 'v'
		for p.pos < len(p.data) && !isSpace(p.data[p.pos]) && p.data[p.pos] != ',' &&
			p.data[p.pos] != '}' && p.data[p.pos] != ']' {
			p.pos++
		}
		if p.pos == n.Start {
			return nil, p.fail(p.pos, "expected a value")
		}
	}
	n.End = p.pos
	return n, nil
}

// list reads the children of an object or array up to its closing byte.
func (p *parser) list(closing byte, child func() error) error {
	p.pos++
	p.ws()
	if p.peek() == closing {
		p.pos++
		return nil
	}
	for {
		p.ws()
		if err := child(); err != nil {
			return err
		}
		p.ws()
		switch p.peek() {
		case ',':
			p.pos++
		case closing:
			p.pos++
			return nil
		default:
			return p.fail(p.pos, fmt.Sprintf("expected ',' or '%c'", closing))
		}
	}
}

// str moves past one string, escapes included.
func (p *parser) str() error {
	p.pos++ // the opening quote
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case '\\':
			p.pos += 2
			continue
		case '"':
			p.pos++
			return nil
		}
		p.pos++
	}
	return p.fail(p.pos, "unterminated string")
}
