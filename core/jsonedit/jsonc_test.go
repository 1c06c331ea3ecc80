package jsonedit

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func openC(t *testing.T, s string) *Doc {
	t.Helper()
	d, err := OpenJSONC([]byte(s), fail)
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return d
}

func jv(v any) Value {
	return func(string, bool) string { b, _ := json.Marshal(v); return string(b) }
}

// Appending a member keeps every comment where it was, and removing the
// member again gives back the file byte for byte.
func TestJSONCAppendRemove(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"{\n  // servers\n  \"a\": 1 // mine\n}\n", "{\n  // servers\n  \"a\": 1, // mine\n  \"x\": 2\n}\n"},
		{"{\n  \"a\": 1, // mine\n}\n", "{\n  \"a\": 1, // mine\n  \"x\": 2,\n}\n"},
		{"{\n  \"a\": 1,\n  /* end */\n}", "{\n  \"a\": 1,\n  \"x\": 2,\n  /* end */\n}"},
		{"{\n  // nothing yet\n}", "{\n  // nothing yet\n  \"x\": 2\n}"},
		{"{ /* none */ }", "{ /* none */ \"x\": 2 }"},
		{`{"a": 1 /* one */}`, `{"a": 1, /* one */ "x": 2}`},
		{"{\"a\": 1 // one\n}", "{\"a\": 1, // one\n\"x\": 2\n}"},
		{"{\r\n  \"a\": 1 // one\r\n}", "{\r\n  \"a\": 1, // one\r\n  \"x\": 2\r\n}"},
		{"{}", "{\n  \"x\": 2\n}"},
	} {
		d := openC(t, c.in)
		got := string(d.AppendMember(d.Root, "x", jv(2)))
		if got != c.want {
			t.Errorf("append to %q:\n got %q\nwant %q", c.in, got, c.want)
			continue
		}
		d2 := openC(t, got)
		if back := string(d2.Remove(d2.Root, len(d2.Root.Members)-1)); back != c.in {
			t.Errorf("remove from %q:\n got %q\nwant %q", got, back, c.in)
		}
	}
}

// Removing an entry keeps the user's comments beside it.
func TestJSONCRemoveKeepsComments(t *testing.T) {
	for _, c := range []struct {
		in   string
		i    int
		want string
	}{
		{"{\n  \"a\": 1, // about a\n  \"b\": 2\n}", 0, "{\n  // about a\n  \"b\": 2\n}"},
		{"{\n  // about a\n  \"a\": 1,\n  \"b\": 2\n}", 0, "{\n  // about a\n  \"b\": 2\n}"},
		{"{\n  \"a\": 1,\n  // about b\n  \"b\": 2\n}", 1, "{\n  \"a\": 1\n  // about b\n}"},
		{"{\n  // only\n  \"a\": 1 /* one */\n}", 0, "{\n  // only /* one */\n}"},
		{"[1, 2,]", 1, "[1,]"},
		{"[1,]", 0, "[]"},
	} {
		d := openC(t, c.in)
		got := d.Remove(d.Root, c.i)
		if string(got) != c.want {
			t.Errorf("remove %d of %q:\n got %q\nwant %q", c.i, c.in, got, c.want)
		}
		if _, err := OpenJSONC(got, fail); err != nil {
			t.Errorf("%q no longer parses: %v", got, err)
		}
	}
}

// Comments are read where the agent reads JSONC, refused where it reads
// JSON, and an unclosed comment or a stray comma is an error with its place.
func TestJSONCBadInput(t *testing.T) {
	for _, c := range []struct {
		in    string
		jsonc bool
		off   int
	}{
		{"{\n  /* open\n  \"a\": 1\n}", true, 4},
		{"{\"a\": [,]}", true, 7},
		{"{\"a\": 1,,}", true, 8},
		{"{\n  // a comment\n  \"a\": 1\n}", false, 4},
		{"{\"a\": 1,}", false, 8},
	} {
		var err error
		if c.jsonc {
			_, err = OpenJSONC([]byte(c.in), fail)
		} else {
			_, err = Open([]byte(c.in), fail)
		}
		var pe *posErr
		if !errors.As(err, &pe) || pe.off != c.off {
			t.Errorf("%q (jsonc %v): %v, want an error at %d", c.in, c.jsonc, err, c.off)
		}
	}
	msg := ""
	_, _ = OpenJSONC([]byte("{/* x"), func(_ int, m string) error { msg = m; return errors.New(m) })
	if !strings.Contains(msg, "end it with */") {
		t.Errorf("unclosed comment: %q does not say how to fix it", msg)
	}
	_, _ = Open([]byte("{// x\n}"), func(_ int, m string) error { msg = m; return errors.New(m) })
	if !strings.Contains(msg, "comment") || !strings.Contains(msg, "take the comment out") {
		t.Errorf("comment in JSON: %q does not say what is wrong", msg)
	}
}

// Strings that look like comments are strings.
func TestJSONCStrings(t *testing.T) {
	d := openC(t, `{"url": "http://x/*y*/", "s": "a\"//b"} // end`)
	if m := d.Root.Member("url"); m == nil || string(d.Raw(m.Val)) != `"http://x/*y*/"` {
		t.Fatalf("url: %+v", m)
	}
	if len(d.Root.Members) != 2 {
		t.Fatalf("members: %d", len(d.Root.Members))
	}
}

// FuzzJSONC: the reader never panics, keeps the bytes it read, and an
// appended member or element comes out again leaving the file as it was.
func FuzzJSONC(f *testing.F) {
	for _, s := range []string{"{}", "[]", "{\n  // c\n  \"a\": 1, /* d */\n}", "[1, // x\n 2,]", "{\"a\": \"/*\"}", "{/* x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := OpenJSONC([]byte(s), fail)
		if err != nil {
			return
		}
		if string(d.Data) != s {
			t.Fatalf("bytes changed: %q", d.Data)
		}
		// an empty container's blanks are not kept (it comes back as {})
		blanks := d.Root.count() == 0 && !d.commented(d.Root.Start, d.Root.End)
		var out []byte
		switch d.Root.Kind {
		case '{':
			out = d.AppendMember(d.Root, "x", jv(map[string]int{"n": 1}))
		case '[':
			out = d.AppendElem(d.Root, jv(2))
		default:
			return
		}
		d2, err := OpenJSONC(out, fail)
		if err != nil {
			t.Fatalf("%q became %q, which does not parse: %v", s, out, err)
		}
		back := string(d2.Remove(d2.Root, d2.Root.count()-1))
		if blanks {
			s = s[:d.Root.Start+1] + s[d.Root.End-1:]
		}
		if back != s {
			t.Fatalf("%q: append then remove gave %q", s, back)
		}
		if d.Root.Kind == '[' && len(d.Root.Elems) > 0 { // charter's entries first (Amp, Auggie)
			front, err := OpenJSONC(d.InsertElem(d.Root, 0, jv(map[string]int{"n": 1})), fail)
			if err != nil {
				t.Fatalf("%q: insert first does not parse: %v", s, err)
			}
			if back := string(front.Remove(front.Root, 0)); back != s {
				t.Fatalf("%q: insert first then remove gave %q", s, back)
			}
		}
	})
}
