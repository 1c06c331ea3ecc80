package jsonedit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

type posErr struct{ off int }

func (e *posErr) Error() string { return fmt.Sprintf("at %d", e.off) }

func fail(off int, msg string) error { return &posErr{off} }

func open(t *testing.T, s string) *Doc {
	t.Helper()
	d, err := Open([]byte(s), fail)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// Lookup follows the last of duplicate keys; Duplicate finds the repeat.
func TestLookupAndDuplicate(t *testing.T) {
	d := open(t, `{"a": {"b": 1}, "a": {"b": [2, 3]}}`)
	m := d.Root.Lookup("a", "b")
	if m == nil || string(d.Raw(m.Val)) != "[2, 3]" {
		t.Fatalf("lookup: %+v", m)
	}
	if d.Root.Lookup("a", "b", "c") != nil || d.Root.Lookup("x") != nil {
		t.Error("a missing path was found")
	}
	if dup := d.Root.Duplicate(); dup == nil || dup.KeyStart != 16 {
		t.Errorf("duplicate %+v", dup)
	}
}

// Errors carry the offset of the byte at fault, in the caller's type.
func TestParseErrors(t *testing.T) {
	for in, off := range map[string]int{
		"{\"a\": ]}":     6,
		"{\"a\": [":      7,
		"{} {}":          4,
		"{\"a\": 1e999}": 12, // the end of a number Go cannot hold
	} {
		_, err := Parse([]byte(in), fail)
		pe, ok := err.(*posErr)
		if !ok || pe.off != off {
			t.Errorf("%q: %v, want an error at %d", in, err, off)
		}
	}
}

// Each edit keeps every other byte and copies the file's style: its
// indentation, its CRLF line endings, its spacing.
func TestEditsKeepStyle(t *testing.T) {
	crlf := "{\r\n\t\"a\": [1],\r\n\t\"b\": {}\r\n}\r\n"
	d := open(t, crlf)
	add := func(v any) Value { return func(p string, multi bool) string { return d.Render(v, p, multi) } }
	got := string(d.AppendMember(d.Root, "c", add(map[string]int{"x": 1})))
	if want := "{\r\n\t\"a\": [1],\r\n\t\"b\": {},\r\n\t\"c\": {\r\n\t\t\"x\": 1\r\n\t}\r\n}\r\n"; got != want {
		t.Errorf("append member:\n%q\nwant\n%q", got, want)
	}
	got = string(d.AppendMember(d.Root.Member("b").Val, "y", add(true)))
	if want := "{\r\n\t\"a\": [1],\r\n\t\"b\": {\r\n\t\t\"y\": true\r\n\t}\r\n}\r\n"; got != want {
		t.Errorf("into an empty object:\n%q\nwant\n%q", got, want)
	}
	got = string(d.AppendElem(d.Root.Member("a").Val, add(2)))
	if want := strings.Replace(crlf, "[1]", "[1, 2]", 1); got != want {
		t.Errorf("append element:\n%q\nwant\n%q", got, want)
	}
	compact := `{"a":[1,2],"b":{}}`
	c := open(t, compact)
	got = string(c.AppendMember(c.Root.Member("b").Val, "k", func(p string, m bool) string { return c.Render([]int{1}, p, m) }))
	if got != `{"a":[1,2],"b":{"k":[1]}}` {
		t.Errorf("compact: %s", got)
	}
	if got := string(c.Remove(c.Root.Member("a").Val, 0)); got != `{"a":[2],"b":{}}` {
		t.Errorf("remove first: %s", got)
	}
	if got := string(c.Remove(c.Root, 1)); got != `{"a":[1,2]}` {
		t.Errorf("remove last: %s", got)
	}
}

// For any object, adding a member and removing it again gives back the
// very bytes, and every step is valid JSON.
func FuzzAppendRemove(f *testing.F) {
	for _, s := range []string{"{}", "{}\n", `{"a":1}`, "{\n  \"a\": [1, {\"b\": null}]\n}\n", "{\r\n\t\"x\": \"\\\"}\"\r\n}", ` { "a" : 1 , "b":2 } `} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := Open(data, fail)
		if err != nil || d.Root.Kind != '{' {
			return
		}
		added := d.AppendMember(d.Root, "charter", func(p string, multi bool) string {
			return d.Render(map[string][]string{"args": {"mcp"}}, p, multi)
		})
		if !json.Valid(added) {
			t.Fatalf("not JSON after adding: %q", added)
		}
		a, err := Open(added, fail)
		if err != nil {
			t.Fatal(err)
		}
		removed := a.Remove(a.Root, len(a.Root.Members)-1)
		if !bytes.Equal(removed, data) && len(d.Root.Members) > 0 {
			t.Fatalf("remove after add:\n%q\nwant\n%q", removed, data)
		}
		if !json.Valid(removed) {
			t.Fatalf("not JSON after removing: %q", removed)
		}
	})
}
