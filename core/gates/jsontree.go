package gates

import (
	"encoding/json"
	"fmt"
)

// jnode is one JSON value with its byte offsets, so that an edit can
// splice the original bytes instead of re-encoding them (encoding/json's
// maps lose key order and spelling).
type jnode struct {
	kind       byte // '{', '[', '"', or 'v' for a number or literal
	start, end int  // the value's bytes: data[start:end]
	members    []*jmember
	elems      []*jnode
}

type jmember struct {
	key              string
	keyStart, keyEnd int // the quoted key's bytes
	val              *jnode
}

// member returns the last member named key (duplicates: the last counts).
func (n *jnode) member(key string) *jmember {
	if n.kind != '{' {
		return nil
	}
	for i := len(n.members) - 1; i >= 0; i-- {
		if n.members[i].key == key {
			return n.members[i]
		}
	}
	return nil
}

func (n *jnode) memberIndex(m *jmember) int {
	for i, x := range n.members {
		if x == m {
			return i
		}
	}
	return -1
}

// count is the number of an object's members or an array's elements.
func (n *jnode) count() int {
	if n.kind == '{' {
		return len(n.members)
	}
	return len(n.elems)
}

func (n *jnode) childStart(i int) int {
	if n.kind == '{' {
		return n.members[i].keyStart
	}
	return n.elems[i].start
}

func (n *jnode) childEnd(i int) int {
	if n.kind == '{' {
		return n.members[i].val.end
	}
	return n.elems[i].end
}

// maxNesting bounds recursion; settings files nest a handful of levels.
const maxNesting = 512

// parseJSON builds the tree of data, which validJSON has accepted.
func parseJSON(data []byte) (*jnode, error) {
	p := &jparser{data: data}
	p.ws()
	n, err := p.value(0)
	if err != nil {
		return nil, err
	}
	if n.kind != '{' {
		return nil, &SettingsError{Msg: "the settings are not a JSON object"}
	}
	return n, nil
}

type jparser struct {
	data []byte
	pos  int
}

func (p *jparser) fail(msg string) error { return errAt(p.data, p.pos, msg) }

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func (p *jparser) ws() {
	for p.pos < len(p.data) && isSpace(p.data[p.pos]) {
		p.pos++
	}
}

func (p *jparser) peek() byte {
	if p.pos < len(p.data) {
		return p.data[p.pos]
	}
	return 0
}

func (p *jparser) value(depth int) (*jnode, error) {
	if depth > maxNesting {
		return nil, p.fail(fmt.Sprintf("nested deeper than %d levels", maxNesting))
	}
	n := &jnode{start: p.pos}
	switch p.peek() {
	case '{':
		n.kind = '{'
		p.pos++
		p.ws()
		if p.peek() == '}' {
			p.pos++
			break
		}
		for {
			p.ws()
			m := &jmember{keyStart: p.pos}
			if p.peek() != '"' {
				return nil, p.fail("expected a key")
			}
			if err := p.str(); err != nil {
				return nil, err
			}
			m.keyEnd = p.pos
			if err := json.Unmarshal(p.data[m.keyStart:m.keyEnd], &m.key); err != nil {
				return nil, p.fail("invalid key")
			}
			p.ws()
			if p.peek() != ':' {
				return nil, p.fail("expected ':'")
			}
			p.pos++
			p.ws()
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			m.val = v
			n.members = append(n.members, m)
			p.ws()
			if c := p.peek(); c == ',' {
				p.pos++
				continue
			} else if c == '}' {
				p.pos++
				break
			}
			return nil, p.fail("expected ',' or '}'")
		}
	case '[':
		n.kind = '['
		p.pos++
		p.ws()
		if p.peek() == ']' {
			p.pos++
			break
		}
		for {
			p.ws()
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			n.elems = append(n.elems, v)
			p.ws()
			if c := p.peek(); c == ',' {
				p.pos++
				continue
			} else if c == ']' {
				p.pos++
				break
			}
			return nil, p.fail("expected ',' or ']'")
		}
	case '"':
		n.kind = '"'
		if err := p.str(); err != nil {
			return nil, err
		}
	default:
		n.kind = 'v'
		for p.pos < len(p.data) && !isSpace(p.data[p.pos]) && p.data[p.pos] != ',' &&
			p.data[p.pos] != '}' && p.data[p.pos] != ']' {
			p.pos++
		}
		if p.pos == n.start {
			return nil, p.fail("expected a value")
		}
	}
	n.end = p.pos
	return n, nil
}

// str moves past one string, escapes included.
func (p *jparser) str() error {
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
	return p.fail("unterminated string")
}
