package settings

import (
	"encoding/json"
	"regexp"
	"slices"
)

// JSONSchema describes the settings as JSON Schema 2020-12: nested objects
// by section, each property with its type, default, bounds, description and
// unit (x-unit), and the sections in order with their titles (x-sections).
// The hub builds its form from it. It accepts what a settings file read
// accepts, as TestSchemaAgrees checks with a JSON Schema validator:
//   - a key or a section may be null (`~`, or nothing after the colon),
//     which charter reads as not set in that file;
//   - a section may hold a value other than a mapping (`rules: 5`): charter
//     keeps it as an unknown value, so there is no `"type": "object"`;
//   - a dotted spelling (`gates.coverage.min: 80` at the top, or
//     `coverage.min` inside gates) is the same key: patternProperties
//     describe each one;
//   - a duration's bound, which no pattern can state, is x-maximum.
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
	for _, k := range schema() {
		obj := root
		segs := k.segments()
		for _, seg := range segs[:len(segs)-1] {
			props := obj["properties"].(map[string]any)
			next, ok := props[seg].(map[string]any)
			if !ok {
				next = map[string]any{"properties": map[string]any{}}
				props[seg] = next
			}
			obj = next
		}
		obj["properties"].(map[string]any)[segs[len(segs)-1]] = property(k)
	}
	dotted(root)
	return root
}

// dotted gives obj, and each section under it, a pattern property for
// every dotted name that reaches a section or key below it.
func dotted(obj map[string]any) {
	props, _ := obj["properties"].(map[string]any)
	patterns := map[string]any{}
	var walk func(prefix string, props map[string]any)
	walk = func(prefix string, props map[string]any) {
		for name, p := range props {
			sub := p.(map[string]any)
			path := name
			if prefix != "" {
				path = prefix + "." + name
				patterns["^"+regexp.QuoteMeta(path)+"$"] = sub
			}
			if inner, ok := sub["properties"].(map[string]any); ok && sub["x-key"] == nil {
				walk(path, inner)
			}
		}
	}
	walk("", props)
	if len(patterns) > 0 {
		obj["patternProperties"] = patterns
	}
	for _, p := range props {
		if sub := p.(map[string]any); sub["x-key"] == nil {
			dotted(sub)
		}
	}
}

// durationPattern is the shape of a Go duration with at least one digit
// other than 0 (charter refuses zero), for editors: an optional +, as Go
// reads it, and spaces around it. Spaces, not \s: ECMA-262's \s (ajv) and
// RE2's (Go validators) are different sets, and charter trims spaces only.
const durationPattern = `^ *\+?(` + durTerm + `)*(` + durNonZero + `)(` + durTerm + `)* *$`

const (
	durUnit    = `(ns|us|µs|μs|ms|s|m|h)`
	durTerm    = `([0-9]+(\.[0-9]*)?|\.[0-9]+)` + durUnit
	durNonZero = `([0-9]*[1-9][0-9]*(\.[0-9]*)?|[0-9]*\.[0-9]*[1-9][0-9]*)` + durUnit
)

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
		p["enum"] = append(slices.Clone(k.Choices), "") // "" stands for null, below
	case List:
		p["type"] = "array"
		items := map[string]any{"type": "string", "minLength": 1, "pattern": textPattern, "description": k.Item}
		if k.ItemPattern != "" {
			items["allOf"] = []any{map[string]any{"pattern": k.ItemPattern}}
		}
		p["items"] = items
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
	if k.Min != "" {
		p["minimum"] = json.Number(k.Min.String())
	}
	if k.Max != "" {
		p["maximum"] = json.Number(k.Max.String())
	}
	if k.Unit != "" {
		p["x-unit"] = k.Unit
	}
	// null (`key: ~`) is not set in that file, for every key.
	p["type"] = []any{p["type"], "null"}
	if e, ok := p["enum"].([]string); ok {
		choices := make([]any, len(e))
		for i, c := range e[:len(e)-1] {
			choices[i] = c
		}
		p["enum"] = choices // ends in nil: JSON null
	}
	return p
}
