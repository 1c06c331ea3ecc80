package tomledit

import "testing"

const sandboxConfig = `sandbox_mode = "workspace-write"

[sandbox_workspace_write]
# my roots
writable_roots = [
  "/tmp/a",
  "network_access = true",
]
  network_access = true   # for npm

[sandbox_workspace_write.sub]
network_access = 1
`

func TestKeyLineFindsTheTablesOwnLine(t *testing.T) {
	d, err := Open([]byte(sandboxConfig))
	if err != nil {
		t.Fatal(err)
	}
	start, end, ok := d.KeyLine([]string{"sandbox_workspace_write"}, "network_access")
	if !ok || string(d.Data[start:end]) != "  network_access = true   # for npm\n" {
		t.Fatalf("found %v %q: not the table's own line (a string in an array or a sub-table's key was taken)", ok, d.Data[start:end])
	}
	if _, _, ok := d.KeyLine([]string{"sandbox_workspace_write"}, "writable"); ok {
		t.Fatal("found a key that is not there")
	}
	pos, ok := d.TableEnd([]string{"sandbox_workspace_write"})
	if !ok || pos != end {
		t.Fatalf("table end %d %v, want %d (after its last key line, before the sub-table)", pos, ok, end)
	}
	got := string(d.Insert(pos, "x = 1\n"))
	want := sandboxConfig[:end] + "x = 1\n" + sandboxConfig[end:]
	if got != want {
		t.Fatalf("insert:\n%s", got)
	}
	if _, _, ok := d.KeyLine([]string{"nope"}, "network_access"); ok {
		t.Fatal("found a line in a table that is not there")
	}
}
