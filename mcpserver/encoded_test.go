package mcpserver

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A result encoded in one pass is byte for byte what the SDK would send,
// whatever the strings hold; a result of another shape, or whose JSON is
// not as json.Marshal writes it, is encoded by the SDK.
func TestEncodedResultIsTheSDKs(t *testing.T) {
	doc := map[string]any{
		"items": []any{map[string]any{"name": "a\"b\\c", "description": "<tag> & \u2028\u2029 \x01\b\f\n\r\t é 日本 \U0001F600 \xff"}},
		"total": 1,
	}
	marshaled, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // raw <, > and &, which the SDK escapes
	if err := enc.Encode(doc); err != nil {
		t.Fatal(err)
	}
	rawHTML := bytes.TrimSpace(buf.Bytes())
	withRaw := func(data []byte, s string) []byte { // valid JSON with s raw in a string
		return append(append([]byte{}, data[:len(data)-1]...), `,"raw":"`+s+`"}`...)
	}
	result := func(data []byte) *mcp.CallToolResult {
		return &mcp.CallToolResult{StructuredContent: json.RawMessage(data), Content: []mcp.Content{&mcp.TextContent{Text: string(data)}}}
	}
	withMeta := result(marshaled)
	withMeta.Meta = mcp.Meta{"io.modelcontextprotocol/serverInfo": map[string]any{"name": "charter", "content": nil}}
	failed := result(marshaled)
	failed.SetError(json.Unmarshal([]byte("x"), new(any)))
	other := result(marshaled)
	other.Content = []mcp.Content{&mcp.TextContent{Text: "not the same"}}
	spaced := append([]byte(" "), marshaled...)
	for name, c := range map[string]struct {
		res  *mcp.CallToolResult
		fast bool
	}{
		"marshaled": {result(marshaled), true}, "meta": {withMeta, true},
		"error": {failed, false}, "other text": {other, false}, "raw html": {result(rawHTML), false},
		"raw U+2028": {result(withRaw(marshaled, "\u2028")), false}, "raw U+2029": {result(withRaw(marshaled, "\u2029")), false},
		"raw é": {result(withRaw(marshaled, "é\u2027")), true}, "space": {result(spaced), false},
	} {
		want, err := c.res.MarshalJSON() // not through json.Marshal, which would escape a difference away
		if err != nil {
			t.Fatal(err)
		}
		if _, fast := encodeResult(c.res); fast != c.fast {
			t.Errorf("%s: one pass %v, want %v", name, fast, c.fast)
		}
		got, err := encodedResult{c.res, nil}.MarshalJSON()
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: %v\n got %s\nwant %s", name, err, got, want)
		}
	}
}
