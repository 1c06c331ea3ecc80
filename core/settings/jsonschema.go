package settings

import "encoding/json"

// JSONSchema describes the settings as JSON Schema 2020-12: nested objects
// by section, each property with its type, default, bounds, description and
// unit (x-unit), and the sections in order with their titles (x-sections).
// The hub builds its form from it.
func JSONSchema() map[string]any {
	root := map[string]any{
		"$schema":              "https://json-schema.org/draft/2020-12/schema",
		"$id":                  "https://agentkit.dev/charter/settings.schema.json",
		"title":                "charter settings",
		"type":                 "object",
		"additionalProperties": true, // unknown keys are kept, not rejected
		"properties":           map[string]any{},
		"x-schemaVersion":      SchemaVersion,
		"x-sections":           Sections(),
	}
	for _, k := range schema {
		obj := root
		segs := k.segments()
		for _, seg := range segs[:len(segs)-1] {
			props := obj["properties"].(map[string]any)
			next, ok := props[seg].(map[string]any)
			if !ok {
				next = map[string]any{"type": "object", "properties": map[string]any{}}
				props[seg] = next
			}
			obj = next
		}
		obj["properties"].(map[string]any)[segs[len(segs)-1]] = property(k)
	}
	return root
}

// durationPattern is the shape of a Go duration, for editors; charter
// itself also refuses zero.
const durationPattern = `^\s*([0-9]+(\.[0-9]*)?|\.[0-9]+)(ns|us|µs|μs|ms|s|m|h)(([0-9]+(\.[0-9]*)?|\.[0-9]+)(ns|us|µs|μs|ms|s|m|h))*\s*$`

func property(k Key) map[string]any {
	p := map[string]any{
		"description": k.Description,
		"default":     k.Default,
		"x-key":       k.Name,
		"x-kind":      string(k.Kind),
	}
	switch k.Kind {
	case Bool:
		p["type"] = "boolean"
	case Int:
		p["type"] = "integer"
	case Decimal:
		p["type"] = "number"
	case Enum:
		p["type"] = "string"
		p["enum"] = k.Choices
	case List:
		p["type"] = "array"
		p["items"] = map[string]any{"type": "string", "minLength": 1, "pattern": textPattern, "description": k.Item}
	case String:
		p["type"] = "string"
		p["pattern"] = textPattern
	case Duration:
		p["type"] = "string"
		p["pattern"] = durationPattern
		if k.MaxDuration > 0 {
			p["x-maximum"] = canonicalDuration(k.MaxDuration) // JSON Schema cannot bound a duration's text
		}
	}
	if k.Min != nil {
		p["minimum"] = json.Number(k.Min.String())
	}
	if k.Max != nil {
		p["maximum"] = json.Number(k.Max.String())
	}
	if k.Unit != "" {
		p["x-unit"] = k.Unit
	}
	return p
}
