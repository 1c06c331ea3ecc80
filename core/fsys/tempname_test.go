package fsys

import "testing"

// Only charter's own pattern is a temporary name, read from the right.
func TestTempOf(t *testing.T) {
	for entry, want := range map[string]string{
		TempName("settings.yaml", 0x0badc0de): "settings.yaml",
		NewTempName("projection.lock"):        "projection.lock",
		".charter-tmp-a-b-0badc0de":           "a-b",
		".charter-tmp-rules-123":              "rules", // os.CreateTemp's decimal
		".charter-tmp-x-0123456789abcdef":     "x",
		".charter-tmp-x-0123456789abcdef0":    "", // longer than any random part
		".charter-tmp-rules-backup":           "",
		".charter-tmp-rules-ABCD":             "",
		".charter-tmp-rules-":                 "",
		".charter-tmp--0badc0de":              "",
		".charter-tmp-0badc0de":               "",
		".rules.tmp-backup":                   "",
		".x.tmp-1":                            "",
		".settings.yaml.tmp-0badc0de":         "",
		"charter-tmp-rules-0badc0de":          "",
	} {
		got, ok := TempOf(entry)
		if got != want || ok != (want != "") {
			t.Errorf("TempOf(%q) = %q, %v; want %q", entry, got, ok, want)
		}
	}
	if isTempOf(".charter-tmp-a-b-0badc0de", "a") {
		t.Error("a-b's temporary name taken for a's")
	}
}
