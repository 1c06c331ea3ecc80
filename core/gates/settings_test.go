package gates

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentkit/charter/core/settings"
)

// Every key the gates read is in the schema with the type they expect.
func TestSettingKeysAreInTheSchema(t *testing.T) {
	want := map[string]settings.Kind{
		settings.KeyGatesTestsCommand: settings.String, settings.KeyGatesTestsRequired: settings.Bool, settings.KeyGatesLintCommand: settings.String,
		settings.KeyGatesLintRequired: settings.Bool, settings.KeyGatesCoverageCommand: settings.String, settings.KeyGatesCoverageReport: settings.String,
		settings.KeyGatesCoverageMin: settings.Decimal, settings.KeyGatesTimeout: settings.Duration, settings.KeyGatesOnFailure: settings.Enum, settings.KeyGatesMaxBlocks: settings.Int,
	}
	for name, kind := range want {
		k, ok := settings.Lookup(name)
		if !ok || k.Kind != kind {
			t.Errorf("%s: in schema %v, kind %s; want %s", name, ok, k.Kind, kind)
		}
	}
}

func TestDeclared(t *testing.T) {
	v := map[string]any{}
	for _, k := range settings.Keys() {
		v[k.Name] = k.Default
	}
	v[settings.KeyGatesTestsCommand] = "go test ./..."
	v[settings.KeyGatesCoverageMin] = settings.Dec("82.5")
	v[settings.KeyGatesTimeout] = "1m30s"
	cfg := Declared(v, "/repo")
	if cfg.Tests.Command != "go test ./..." || !cfg.Tests.Required || !cfg.Lint.Required || cfg.Lint.Command != "" ||
		cfg.Coverage.Min.String() != "82.5" || cfg.Timeout != 90*time.Second || cfg.Dir != "/repo" {
		t.Errorf("%+v", cfg)
	}
	if s := ReadSettings(v); s.OnFailure != "stop" || s.MaxBlocks != 3 || s.Tests.Command != "go test ./..." || s.Coverage.Min.String() != "82.5" {
		t.Errorf("settings %+v", s)
	}
	def := Declared(map[string]any{settings.KeyGatesTimeout: "10m"}, "")
	if def.Timeout != DefaultTimeout {
		t.Errorf("default timeout %v", def.Timeout)
	}
}

// gates.max_blocks is read as validated: the largest value the schema
// allows is the hook's, and one beyond the bounds is brought within them,
// never read as the default 3 while the block states another number.
func TestReadSettingsMaxBlocks(t *testing.T) {
	k, _ := settings.Lookup(settings.KeyGatesMaxBlocks)
	if k.Max != "10" {
		t.Fatalf("gates.max_blocks has no maximum of 10: %v", k.Max)
	}
	for in, want := range map[int64]int{1: 1, 3: 3, 10: 10, 11: 10, 1 << 20: 10, 1000000: 10, 0: 1, -5: 1} {
		if got := ReadSettings(map[string]any{settings.KeyGatesMaxBlocks: in}).MaxBlocks; got != want {
			t.Errorf("max_blocks %d read as %d, want %d", in, got, want)
		}
	}
	if got := ReadSettings(map[string]any{}).MaxBlocks; got != 0 {
		t.Errorf("no value read as %d, want 0 (the hook's default)", got)
	}
}

// The schema is the single source of key names: no source file of this
// package writes one as a string literal (STYLE.md).
func TestNoKeyLiterals(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]bool{}
	for _, k := range settings.Keys() {
		keys[k.Name] = true
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				if s, err := strconv.Unquote(lit.Value); err == nil && keys[s] {
					t.Errorf("%s: the key %s written as a literal: use the settings.Key… constant", f, s)
				}
			}
			return true
		})
		for _, c := range file.Comments {
			for name := range keys {
				if strings.Contains(c.Text(), `"`+name+`"`) {
					t.Errorf("%s: a comment quotes the key %s as code to copy", f, name)
				}
			}
		}
	}
}
