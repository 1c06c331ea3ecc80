package settings

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
)

// A key defined twice makes the file malformed for reads and writes alike:
// both lines are named, and nothing is written.
func TestKeyDefinedTwiceIsMalformed(t *testing.T) {
	for name, tc := range map[string]struct {
		body  string
		key   string
		lines string
	}{
		"same mapping":      {"rules:\n  tier: full\n  tier: minimal\n", "rules.tier", "line 2 and on line 3"},
		"depth three":       {"commands:\n  suggestions:\n    max_options: 2\n    max_options: 3\n", "commands.suggestions.max_options", "line 3 and on line 4"},
		"dotted and nested": {"rules.tier: full\nrules:\n  tier: minimal\n", "rules.tier", "line 1 and on line 3"},
		"half dotted":       {"gates:\n  coverage.min: 5\n  coverage:\n    min: 6\n", "gates.coverage.min", "line 2 and on line 4"},
		"section twice":     {"rules:\n  tier: full\nrules:\n  disabled: [a]\n", "rules.tier", "line 1 and on line 3"},
	} {
		t.Run(name, func(t *testing.T) {
			fs := afero.NewMemMapFs()
			st := globalStore(t, fs, "/home/u")
			unchanged := writeFile(t, fs, st, tc.body)
			_, rerr := st.Read()
			_, serr := set(st, tc.key, sampleText(tc.key))
			_, uerr := unset(st, tc.key)
			for op, err := range map[string]error{"read": rerr, "set": serr, "unset": uerr} {
				var fe *FileError
				if !errors.As(err, &fe) || fe.Code() != core.CodeMalformedSettings || !strings.Contains(err.Error(), st.Path()+":") || !strings.Contains(err.Error(), tc.lines) {
					t.Errorf("%s: %v", op, err)
				}
			}
			unchanged()
		})
	}
}

// A value the user wrote where a write would need a section is never
// replaced: exit 2 material, naming file and line, nothing written.
func TestScalarParentIsRefused(t *testing.T) {
	for name, tc := range map[string]struct{ body, key, where string }{
		"scalar":        {"# mine\nrules: 5 # my note\n", "rules.tier", ":2: rules holds a value"},
		"list":          {"gates: [a, b]\n", "gates.on_failure", ":1: gates holds a value"},
		"deep":          {"commands:\n  suggestions: off # not now\n", "commands.suggestions.enabled", ":2: commands.suggestions holds a value"},
		"dotted parent": {"commands.suggestions: off\n", "commands.suggestions.max_options", ":1: commands.suggestions holds a value"},
	} {
		t.Run(name, func(t *testing.T) {
			fs := afero.NewMemMapFs()
			st := globalStore(t, fs, "/home/u")
			unchanged := writeFile(t, fs, st, tc.body)
			snap, err := st.Read()
			if err != nil || len(snap.Unknown) == 0 {
				t.Fatalf("the value is kept as an unknown key: %v %v", snap, err)
			}
			_, err = set(st, tc.key, sampleText(tc.key))
			var ve *ValidationError
			if !errors.As(err, &ve) || ve.Code() != core.CodeScalarParent || !strings.Contains(err.Error(), st.Path()+tc.where) || !strings.Contains(err.Error(), "edit or remove line") {
				t.Fatalf("got %v", err)
			}
			unchanged()
			// Unsetting the key is a no-op that keeps the value too.
			if _, err := unset(st, tc.key); err != nil {
				t.Fatal(err)
			}
			unchanged()
		})
	}
	// An empty section is no value: it takes the key, comment and all.
	fs := afero.NewMemMapFs()
	st := globalStore(t, fs, "/home/u")
	writeFile(t, fs, st, "rules: # later\n")
	mustSet(t, st, "rules.tier", "full")
	if got, _ := afero.ReadFile(fs, st.Path()); string(got) != "rules: # later\n  tier: full\n" {
		t.Fatalf("file %q", got)
	}
}

// A CRLF file stays CRLF: byte for byte the same but for the changed line.
func TestCRLFFileKeepsItsLineEnds(t *testing.T) {
	fs := afero.NewMemMapFs()
	st := globalStore(t, fs, "/home/u")
	body := "# my settings\r\nrules:\r\n  # tier comment\r\n  tier: minimal # inline\r\ngates:\r\n  on_failure: ask\r\n"
	writeFile(t, fs, st, body)
	mustSet(t, st, "rules.tier", "full")
	got, _ := afero.ReadFile(fs, st.Path())
	if want := strings.Replace(body, "tier: minimal", "tier: full", 1); string(got) != want {
		t.Fatalf("file\n%q\nwant\n%q", got, want)
	}
	mustSet(t, st, "skills.autoload", "false")
	if _, err := unset(st, "gates.on_failure"); err != nil {
		t.Fatal(err)
	}
	got, _ = afero.ReadFile(fs, st.Path())
	if want := "# my settings\r\nrules:\r\n  # tier comment\r\n  tier: full # inline\r\nskills:\r\n  autoload: false\r\n"; string(got) != want {
		t.Fatalf("file\n%q\nwant\n%q", got, want)
	}
}

func TestBOMIsKept(t *testing.T) {
	fs := afero.NewMemMapFs()
	st := globalStore(t, fs, "/home/u")
	writeFile(t, fs, st, utf8BOM+"rules:\n  tier: minimal\n")
	if snap, err := st.Read(); err != nil || snap.Values["rules.tier"] != "minimal" {
		t.Fatalf("%v %v", snap, err)
	}
	mustSet(t, st, "rules.tier", "full")
	if got, _ := afero.ReadFile(fs, st.Path()); string(got) != utf8BOM+"rules:\n  tier: full\n" {
		t.Fatalf("file %q", got)
	}
}

// A file above the cap is refused before it is parsed, on read and write.
func TestFileAboveTheCapIsRefused(t *testing.T) {
	fs := afero.NewMemMapFs()
	st := globalStore(t, fs, "/home/u")
	line := "# " + strings.Repeat("x", 1021) + "\n" // 1 KiB
	head := "rules:\n  tier: full\n"
	body := head + strings.Repeat(line, (MaxFileSize-len(head))/len(line))
	body += strings.Repeat("#", MaxFileSize-len(body)) + "\n"
	if len(body) != MaxFileSize+1 {
		t.Fatalf("built %d bytes", len(body))
	}
	unchanged := writeFile(t, fs, st, body)
	_, rerr := st.Read()
	_, serr := set(st, "rules.tier", "minimal")
	for op, err := range map[string]error{"read": rerr, "set": serr} {
		var fe *FileError
		if !errors.As(err, &fe) || fe.Path != st.Path() || !strings.Contains(err.Error(), "larger than the 1 MiB") {
			t.Errorf("%s: %v", op, err)
		}
	}
	unchanged()
	// At the cap exactly, the file is read.
	writeFile(t, fs, st, body[:MaxFileSize-1]+"\n")
	if snap, err := st.Read(); err != nil || snap.Values["rules.tier"] != "full" {
		t.Fatalf("at the cap: %v", err)
	}
}

func TestCommentOnlyFileKeepsItsComments(t *testing.T) {
	fs := afero.NewMemMapFs()
	st := globalStore(t, fs, "/home/u")
	writeFile(t, fs, st, "# written by hand\n# keep\n")
	mustSet(t, st, "rules.tier", "full")
	if _, err := unset(st, "rules.tier"); err != nil {
		t.Fatal(err)
	}
	if got, _ := afero.ReadFile(fs, st.Path()); string(got) != "# written by hand\n# keep\n" {
		t.Fatalf("file %q", got)
	}
}

// A comment the YAML writer cannot place makes the edit fail, not vanish.
func TestEditThatWouldLoseACommentIsRefused(t *testing.T) {
	fs := afero.NewMemMapFs()
	st := globalStore(t, fs, "/home/u")
	unchanged := writeFile(t, fs, st, "a:\n# stranded\n 0\n# two\nb:\n")
	_, err := set(st, "rules.tier", "full")
	var fe *FileError
	if !errors.As(err, &fe) || fe.Line() != 2 || !strings.Contains(err.Error(), `"# stranded"`) {
		t.Fatalf("got %v", err)
	}
	unchanged()
}

func TestSecondDocumentIsMalformed(t *testing.T) {
	fs := afero.NewMemMapFs()
	st := globalStore(t, fs, "/home/u")
	unchanged := writeFile(t, fs, st, "rules:\n  tier: full\n---\nrules:\n  tier: minimal\n")
	if _, err := st.Read(); err == nil || !strings.Contains(err.Error(), ":3: a second YAML document") {
		t.Fatalf("got %v", err)
	}
	if _, err := set(st, "gates.on_failure", "ask"); err == nil {
		t.Fatal("written")
	}
	unchanged()
}

// A write of a file near the cap stays linear: one parse, one encode, one
// check of what was written.
func BenchmarkWriteLargeFile(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("# big file\nrules:\n  tier: minimal\n")
	for i := 0; sb.Len() < MaxFileSize-200; i++ {
		fmt.Fprintf(&sb, "# note %d\nkey%d:\n  name: value %d # inline\n  list: [a, b, c]\n", i, i, i)
	}
	benchWrite(b, []byte(sb.String()))
}
