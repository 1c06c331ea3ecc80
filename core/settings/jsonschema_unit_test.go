package settings

import "testing"

// The hub names a number's unit from the schema, never from a key name.
func TestJSONSchemaUnit(t *testing.T) {
	cost := JSONSchema()["properties"].(map[string]any)["cost"].(map[string]any)
	budget := cost["properties"].(map[string]any)["budget"].(map[string]any)["properties"].(map[string]any)
	for _, name := range []string{"daily", "monthly"} {
		if got := budget[name].(map[string]any)["x-unit"]; got != "in your billing currency" {
			t.Errorf("cost.budget.%s x-unit = %v", name, got)
		}
	}
	rules := JSONSchema()["properties"].(map[string]any)["rules"].(map[string]any)["properties"].(map[string]any)
	if _, ok := rules["tier"].(map[string]any)["x-unit"]; ok {
		t.Error("a key without a unit has x-unit")
	}
}
