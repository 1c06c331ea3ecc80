package core

import "github.com/agentkit/charter/helpers/jsondoc"

// EncodeJSON is jsondoc.Encode, under the name server and mcpserver still
// call (issue 34 moves them to jsondoc, then this goes).
func EncodeJSON(v any, prefix, indent string) ([]byte, error) {
	return jsondoc.Encode(v, prefix, indent)
}
