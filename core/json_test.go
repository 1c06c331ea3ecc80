package core

import "testing"

func TestEncodeJSON(t *testing.T) {
	v := map[string]any{"cmd": "a && b <c>"}
	for _, c := range []struct{ prefix, indent, want string }{
		{"", "", "{\"cmd\":\"a && b <c>\"}\n"},
		{"", "  ", "{\n  \"cmd\": \"a && b <c>\"\n}\n"},
		{"\t", "\t", "{\n\t\t\"cmd\": \"a && b <c>\"\n\t}\n"},
	} {
		got, err := EncodeJSON(v, c.prefix, c.indent)
		if err != nil || string(got) != c.want {
			t.Errorf("EncodeJSON(%q, %q) = %q, %v; want %q", c.prefix, c.indent, got, err, c.want)
		}
	}
	if _, err := EncodeJSON(func() {}, "", ""); err == nil {
		t.Error("a func encoded")
	}
}
