package agents

import (
	"slices"
	"testing"
)

// A nil Table is the built-in one, handed out as a copy: no caller can
// change the table the next lookup reads.
func TestNilTableIsDefault(t *testing.T) {
	var tb Table
	if !slices.Equal(tb.Names(), Table(Default()).Names()) || tb.Names()[0] != "claude" {
		t.Fatalf("nil table names %v, want the default table's", tb.Names())
	}
	tb.All()[0].Name = "x"
	Default()[1].Name = "y"
	if a, ok := tb.Lookup("claude"); !ok || a.Name != "claude" {
		t.Fatalf("Lookup(claude) = %+v, %v after changing copies", a, ok)
	}
	if a, _ := tb.Lookup("codex"); a.Name != "codex" {
		t.Fatalf("the default table changed through Default(): %q", a.Name)
	}
	if _, ok := tb.Lookup("zork"); ok {
		t.Error("Lookup found an agent the table does not have")
	}
	own := Table{{Name: "zork"}}
	if got := own.Names(); !slices.Equal(got, []string{"zork"}) {
		t.Errorf("a run's own table names %v, want [zork]", got)
	}
	n := 0
	for range own.Each() {
		n++
	}
	if n != 1 {
		t.Errorf("Each yielded %d agents of a table of one", n)
	}
}

// The written-out list of the built-in table's variables is the table's:
// a row added or a variable renamed without it fails here.
func TestBuiltinDirVars(t *testing.T) {
	want := Table(Default()).DirVars()
	if got := Table(nil).DirVars(); !slices.Equal(got, want) {
		t.Fatalf("builtinDirVars = %v, the table has %v: update builtinDirVars in lookup.go", got, want)
	}
	if got := (Table{{Name: "zork", DirVar: "ZORK_HOME"}, {Name: "plain"}}).DirVars(); !slices.Equal(got, []DirVar{{"zork", "ZORK_HOME"}}) {
		t.Errorf("a run's own table's DirVars = %v, want [{zork ZORK_HOME}]", got)
	}
}
