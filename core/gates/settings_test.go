package gates

import (
	"testing"
	"time"

	"github.com/agentkit/charter/core/settings"
)

// Every key the gates read is in the schema with the type they expect.
func TestSettingKeysAreInTheSchema(t *testing.T) {
	want := map[string]settings.Kind{
		KeyTestsCommand: settings.String, KeyTestsRequired: settings.Bool, KeyLintCommand: settings.String,
		KeyLintRequired: settings.Bool, KeyCoverageCommand: settings.String, KeyCoverageReport: settings.String,
		KeyCoverageMin: settings.Decimal, KeyTimeout: settings.Duration, KeyOnFailure: settings.Enum, KeyMaxBlocks: settings.Int,
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
	v[KeyTestsCommand] = "go test ./..."
	v[KeyCoverageMin] = settings.Dec("82.5")
	v[KeyTimeout] = "1m30s"
	cfg := Declared(v, "/repo")
	if cfg.Tests.Command != "go test ./..." || !cfg.Tests.Required || !cfg.Lint.Required || cfg.Lint.Command != "" ||
		cfg.Coverage.Min.String() != "82.5" || cfg.Timeout != 90*time.Second || cfg.Dir != "/repo" {
		t.Errorf("%+v", cfg)
	}
	if on, n := hookSettings(v); on != "stop" || n != 3 {
		t.Errorf("hook settings %s %d", on, n)
	}
	def := Declared(map[string]any{KeyTimeout: "10m"}, "")
	if def.Timeout != DefaultTimeout {
		t.Errorf("default timeout %v", def.Timeout)
	}
}

// gates.max_blocks is read as validated: the largest value the schema
// allows is the hook's, and one beyond the bounds is brought within them,
// never read as the default 3 while the block states another number.
func TestHookSettingsMaxBlocks(t *testing.T) {
	k, _ := settings.Lookup(KeyMaxBlocks)
	if k.Max == nil || k.Max.IntPart() != 10 {
		t.Fatalf("gates.max_blocks has no maximum of 10: %v", k.Max)
	}
	for in, want := range map[int64]int{1: 1, 3: 3, 10: 10, 11: 10, 1 << 20: 10, 1000000: 10, 0: 1, -5: 1} {
		if _, got := hookSettings(map[string]any{KeyMaxBlocks: in}); got != want {
			t.Errorf("max_blocks %d read as %d, want %d", in, got, want)
		}
	}
	if _, got := hookSettings(map[string]any{}); got != 0 {
		t.Errorf("no value read as %d, want 0 (the hook's default)", got)
	}
}
