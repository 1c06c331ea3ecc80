package core

import (
	"bytes"
	"encoding/json"
)

// EncodeJSON encodes v as charter writes every JSON document: without HTML
// escaping (paths and commands read as they are, & < > included), indented
// with prefix and indent when either is set, else compact, and ending in a
// newline.
func EncodeJSON(v any, prefix, indent string) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent(prefix, indent)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
