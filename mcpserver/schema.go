package mcpserver

import (
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/gates"
	"github.com/agentkit/charter/core/lazy"
	"github.com/agentkit/charter/core/settings"
)

// typeSchemas describe types whose JSON differs from their Go kind.
var typeSchemas = lazy.Value[map[reflect.Type]*jsonschema.Schema]{Make: func() map[reflect.Type]*jsonschema.Schema {
	return map[reflect.Type]*jsonschema.Schema{
		// A setting's value or default (settings_get, settings_explain). Left to
		// itself, jsonschema-go writes `true` for an interface, which JSON Schema
		// allows but MCP's Tool schema does not: the TypeScript SDK (1.22.0 on)
		// and the Inspector reject the whole tools/list over it.
		reflect.TypeFor[any](): {
			Types: []string{"null", "boolean", "number", "string", "array"},
			Items: &jsonschema.Schema{Type: "string"},
		},
		// A decimal travels as a JSON number written from its exact text.
		reflect.TypeFor[settings.Dec](): {Type: "number"},
		// A coverage gate's measure: two decimals, written as numbers.
		reflect.TypeFor[gates.CoverageResult](): {
			Type:       "object",
			Properties: map[string]*jsonschema.Schema{"percent": {Type: "number"}, "min": {Type: "number"}},
			Required:   []string{"percent", "min"},
		},
		// An error body carries its extras beside code and message.
		reflect.TypeFor[core.ErrorBody](): {
			Type:       "object",
			Properties: map[string]*jsonschema.Schema{"code": {Type: "string"}, "message": {Type: "string"}},
			Required:   []string{"code", "message"},
		},
	}
}}

// schemaFor is the JSON Schema of T. The types are this package's own, so
// a failure is a programming error.
func schemaFor[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](&jsonschema.ForOptions{TypeSchemas: typeSchemas.Get()})
	if err != nil {
		panic(err)
	}
	if err := mcpSchemaOK(s); err != nil {
		panic(fmt.Sprintf("schema of %s: %v", reflect.TypeFor[T](), err))
	}
	return s
}

// inputSchemaFor is schemaFor for a tool's input, with one type per
// property: jsonschema-go gives a slice ["null","array"], and the
// Inspector's strict mode warns on every type array. A client leaves an
// optional field out rather than send null, so null is dropped.
func inputSchemaFor[T any]() *jsonschema.Schema {
	s := schemaFor[T]()
	if err := singleTypes("", s); err != nil {
		panic(fmt.Sprintf("input schema of %s: %v", reflect.TypeFor[T](), err))
	}
	return s
}

// singleTypes turns each ["null", X] of s into X, at any depth, and
// refuses any other type array.
func singleTypes(path string, s *jsonschema.Schema) error {
	if s == nil {
		return nil
	}
	if len(s.Types) > 0 {
		var rest []string
		for _, t := range s.Types {
			if t != "null" {
				rest = append(rest, t)
			}
		}
		if len(rest) != 1 {
			return fmt.Errorf("%s has the types %v: give it one", path, s.Types)
		}
		s.Type, s.Types = rest[0], nil
	}
	for name, p := range s.Properties {
		if err := singleTypes(path+"."+name, p); err != nil {
			return err
		}
	}
	return singleTypes(path+"[]", s.Items)
}

// mcpSchemaOK holds s to what MCP's Tool schema asks beyond JSON Schema:
// type "object" at the top, and an object (never `true` or `false`) for
// every property, at any depth.
func mcpSchemaOK(s *jsonschema.Schema) error {
	data, err := json.Marshal(s)
	if err != nil {
		return err
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		return fmt.Errorf("not an object: %s", data)
	}
	if doc["type"] != "object" {
		return fmt.Errorf("type is %v, not object", doc["type"])
	}
	return propertiesOK("", doc)
}

func propertiesOK(path string, v any) error {
	switch v := v.(type) {
	case map[string]any:
		if props, ok := v["properties"].(map[string]any); ok {
			for name, p := range props {
				if _, ok := p.(map[string]any); !ok {
					return fmt.Errorf("property %s%s is %v, not a schema object", path, name, p)
				}
			}
		}
		for k, child := range v {
			if err := propertiesOK(path+k+".", child); err != nil {
				return err
			}
		}
	case []any:
		for _, child := range v {
			if err := propertiesOK(path, child); err != nil {
				return err
			}
		}
	}
	return nil
}
