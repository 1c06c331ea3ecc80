package tomledit

import (
	"errors"
	"testing"
)

const userConfig = `# my Codex settings
model = "o3"   # the fast one
notes = """
[mcp_servers.fake]
not a header: inside a string
"""
list = [
  "a",
  # [mcp_servers.alsofake]
  "b",
]

[mcp_servers.mine]
command = "my-mcp"   # keep this comment

[mcp_servers.mine.env]
A = "1"

# about the profile below
[profiles.fast]
model = "o3"
`

func TestBlockFindsTheTableAndItsSubTables(t *testing.T) {
	d, err := Open([]byte(userConfig))
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range [][]string{{"mcp_servers", "fake"}, {"mcp_servers", "alsofake"}} {
		if _, _, ok := d.Block(k...); ok {
			t.Fatalf("%v: a header inside a string or array was taken for a table", k)
		}
	}
	start, end, ok := d.Block("mcp_servers", "mine")
	if !ok {
		t.Fatal("no block")
	}
	want := "[mcp_servers.mine]\ncommand = \"my-mcp\"   # keep this comment\n\n[mcp_servers.mine.env]\nA = \"1\"\n"
	if got := string(d.Data[start:end]); got != want {
		t.Fatalf("block:\n%q\nwant\n%q", got, want)
	}
	if d.Lookup("mcp_servers", "mine", "env", "A") != "1" {
		t.Fatalf("lookup: %v", d.Lookup("mcp_servers", "mine"))
	}
}

// Appending a table and removing it again gives the file back byte for
// byte; replacing one changes only its bytes.
func TestAppendRemoveReplaceKeepEveryOtherByte(t *testing.T) {
	d, _ := Open([]byte(userConfig))
	table := Table([]string{"mcp_servers", "notes server"}, []KV{
		{"command", "notes-mcp"}, {"args", []string{"--stdio", `a "quoted" arg`}}, {"env", map[string]string{"B": "2", "A": "1"}}})
	if table != "[mcp_servers.\"notes server\"]\ncommand = \"notes-mcp\"\nargs = [\"--stdio\", \"a \\\"quoted\\\" arg\"]\nenv = { A = \"1\", B = \"2\" }\n" {
		t.Fatalf("table:\n%s", table)
	}
	added := d.Append(table)
	if string(added) != userConfig+"\n"+table {
		t.Fatalf("append:\n%s", added)
	}
	d2, err := Open(added)
	if err != nil {
		t.Fatal(err)
	}
	if d2.Lookup("mcp_servers", "notes server", "args").([]any)[1] != `a "quoted" arg` {
		t.Fatal("the parser reads the table otherwise")
	}
	start, end, ok := d2.Block("mcp_servers", "notes server")
	if !ok {
		t.Fatal("the appended table is not found")
	}
	if got := string(d2.Remove(start, end)); got != userConfig {
		t.Fatalf("remove:\n%q", got)
	}
	start, end, _ = d.Block("mcp_servers", "mine")
	repl := string(d.Replace(start, end, "[mcp_servers.mine]\ncommand = \"other\"\n"))
	want := userConfig[:start] + "[mcp_servers.mine]\ncommand = \"other\"\n" + userConfig[end:]
	if repl != want {
		t.Fatalf("replace:\n%s", repl)
	}
	if got := string((&Doc{}).Append(table)); got != table {
		t.Fatalf("append to nothing: %q", got)
	}
	if got := string((&Doc{Data: []byte("a = 1")}).Append(table)); got != "a = 1\n\n"+table {
		t.Fatalf("append after a last line without newline: %q", got)
	}
}

func TestOpenRefusesWhatIsNotTOML(t *testing.T) {
	for bad, line := range map[string]int{"a = 1\nb = \n": 2, "a = 1\n[t]\n[t]\n": 3, "x = \"open\n": 1} {
		_, err := Open([]byte(bad))
		var te *ParseError
		if !errors.As(err, &te) || te.Line != line {
			t.Fatalf("%q: %v, want line %d", bad, err, line)
		}
	}
}

func FuzzScanAgreesWithTheParser(f *testing.F) {
	f.Add(userConfig)
	f.Add("[a]\nb = [\n'''\n[c]\n''']\n[d]\n")
	f.Fuzz(func(t *testing.T, s string) {
		d, err := Open([]byte(s))
		if err != nil {
			return
		}
		// Every header scan finds is a table the parser knows.
		for _, tb := range d.tables {
			if d.Lookup(tb.key...) == nil {
				t.Fatalf("scan found [%v], which the parser does not have", tb.key)
			}
		}
	})
}
