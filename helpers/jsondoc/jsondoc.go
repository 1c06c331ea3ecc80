// Package jsondoc encodes a JSON document as charter writes every one: the
// CLI's --json, the HTTP API, MCP and the files charter keeps. It is a
// leaf, so the error document (core/errcode) and the skins share it.
package jsondoc

import (
	"bytes"
	"encoding/json"
)

// Encode encodes v without HTML escaping (paths and commands read as they
// are, & < > included), indented with prefix and indent when either is
// set, else compact, and ending in a newline.
func Encode(v any, prefix, indent string) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent(prefix, indent)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
