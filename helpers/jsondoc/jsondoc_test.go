package jsondoc

import "testing"

func TestEncode(t *testing.T) {
	v := map[string]any{"cmd": "a && b <c>"}
	for _, c := range []struct{ prefix, indent, want string }{
		{"", "", "{\"cmd\":\"a && b <c>\"}\n"},
		{"", "  ", "{\n  \"cmd\": \"a && b <c>\"\n}\n"},
		{"\t", "\t", "{\n\t\t\"cmd\": \"a && b <c>\"\n\t}\n"},
	} {
		got, err := Encode(v, c.prefix, c.indent)
		if err != nil || string(got) != c.want {
			t.Errorf("Encode(%q, %q) = %q, %v; want %q", c.prefix, c.indent, got, err, c.want)
		}
	}
	if _, err := Encode(func() {}, "", ""); err == nil {
		t.Error("a func encoded")
	}
}
