package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// encodeOutput is a tool's output as JSON: the JSON it keeps, if any.
func encodeOutput(out any) ([]byte, error) {
	if k, ok := out.(interface{ encodedJSON() []byte }); ok && k.encodedJSON() != nil {
		return k.encodedJSON(), nil
	}
	return json.Marshal(out)
}

// encodedResult is a tool's result whose wire form is made in one pass.
// Left to the SDK, a page's JSON was copied through encoding/json five
// times on its way out (each MarshalJSON's output is compacted again by
// the one that called it, the text block escaped once more), most of a
// rules_list call's own CPU in the server.
type encodedResult struct {
	*mcp.CallToolResult
	held *heldResults // set when charter's stdio transport writes the reply
}

// MarshalJSON runs when the SDK sends the result, after it has set the
// result type and _meta of the stateless protocol on it.
func (r encodedResult) MarshalJSON() ([]byte, error) {
	wire, ok := encodeResult(r.CallToolResult)
	if !ok {
		return json.Marshal(r.CallToolResult)
	}
	if r.held != nil {
		// encoding/json would scan and copy the page once more to compact
		// what it already is: the transport gets a short stand-in instead.
		return r.held.put(wire), nil
	}
	return wire, nil
}

// encodeResults is the outermost receiving middleware: it hands the
// SDK a tool result that encodes itself.
func encodeResults(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if r, ok := res.(*mcp.CallToolResult); ok && err == nil {
			held, _ := ctx.Value(heldKey{}).(*heldResults)
			return encodedResult{r, held}, nil
		}
		return res, err
	}
}

// heldResults are encoded results that the SDK passes on to charter's
// stdio transport as stand-ins, which the transport replaces by them.
// Server.Run makes one per stdio session and hands it, through the
// context, to the session's connection and its calls alike: no other
// transport ever sees a stand-in.
type heldResults struct {
	mu   sync.Mutex
	next uint64
	wire map[string][]byte
}

type heldKey struct{}

// heldMark starts a stand-in: a JSON string that NUL, escaped, keeps
// apart from anything a result could be (a result is an object).
const heldMark = `"\u0000charter:result:`

func (h *heldResults) put(wire []byte) []byte {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.next++
	mark := heldMark + strconv.FormatUint(h.next, 10) + `\u0000"`
	h.wire[mark] = wire
	return []byte(mark)
}

// take is the result that mark stands in for, which it forgets.
func (h *heldResults) take(mark []byte) (wire []byte, ok bool) {
	if h == nil || !bytes.HasPrefix(mark, []byte(heldMark)) {
		return nil, false
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	wire, ok = h.wire[string(mark)]
	delete(h.wire, string(mark))
	return wire, ok
}

// Stand-ins for the two blocks while the SDK encodes the rest of a
// result: NUL is escaped in JSON, so no other text encodes to them.
const (
	textMark       = "\x00charter:text\x00"
	structuredMark = `"\u0000charter:structured\u0000"`
)

// encodeResult is the JSON the SDK would send for r, when r is a
// successful result of addTool's shape: structured content as
// json.Marshal writes it, and the same JSON as its one text block. ok is
// false for any other result.
func encodeResult(r *mcp.CallToolResult) (wire []byte, ok bool) {
	data, ok := r.StructuredContent.(json.RawMessage)
	if !ok || r.IsError || len(r.Content) != 1 || len(data) == 0 {
		return nil, false
	}
	tc, ok := r.Content[0].(*mcp.TextContent)
	if !ok || tc.Meta != nil || tc.Annotations != nil || tc.Text != string(data) {
		return nil, false
	}
	text := escapedText(data)
	if text == nil {
		return nil, false
	}
	// The SDK encodes what surrounds the blocks (a result type, _meta);
	// the blocks are spliced in where their stand-ins went.
	shell := *r
	shell.Content = []mcp.Content{&mcp.TextContent{Text: textMark}}
	shell.StructuredContent = json.RawMessage(structuredMark)
	around, err := json.Marshal(&shell)
	if err != nil {
		return nil, false
	}
	mark, _ := json.Marshal(textMark)
	t := bytes.Index(around, mark)
	s := bytes.Index(around, []byte(structuredMark))
	if t < 0 || s < t {
		return nil, false
	}
	lastWire.Lock()
	defer lastWire.Unlock()
	if len(lastWire.data) == len(data) && &lastWire.data[0] == &data[0] && bytes.Equal(lastWire.around, around) {
		return lastWire.wire, true
	}
	out := make([]byte, 0, len(around)+len(text)+len(data)+2)
	out = append(out, around[:t]...)
	out = append(out, '"')
	out = append(out, text...)
	out = append(out, '"')
	out = append(out, around[t+len(mark):s]...)
	out = append(out, data...)
	out = append(out, around[s+len(structuredMark):]...)
	lastWire.data, lastWire.around, lastWire.wire = data, around, out
	return out, true
}

// lastWire is the result last encoded: a kept page answers each call with
// the same bytes while what the SDK writes around them stays the same.
// Its readers only read it.
var lastWire struct {
	sync.Mutex
	data, around, wire []byte
}

// lastText is the text block last escaped, by the JSON it escapes: a
// kept page (Server.list) hands the same bytes to each call. Holding
// them keeps their address from being reused.
var lastText struct {
	sync.Mutex
	data, text []byte
}

// escapedText is plain JSON (plainJSON) as the inside of a JSON string,
// nil for other JSON.
func escapedText(data []byte) []byte {
	lastText.Lock()
	defer lastText.Unlock()
	if len(lastText.data) == len(data) && &lastText.data[0] == &data[0] {
		return lastText.text
	}
	if !plainJSON(data) {
		return nil
	}
	text := appendEscaped(make([]byte, 0, len(data)+len(data)/4), data)
	lastText.data, lastText.text = data, text
	return text
}

// plainJSON reports whether data, valid JSON, is as json.Marshal
// writes it: compact, valid UTF-8, with <, >, &, U+2028 and U+2029
// escaped. Then the SDK would copy it unchanged, and its text block
// needs a backslash before quotes and backslashes alone.
func plainJSON(data []byte) bool {
	inString, escaped := false, false
	for i, c := range data {
		switch {
		case c < 0x20, c == '<', c == '>', c == '&', c == ' ' && !inString:
			return false
		case c == 0xE2 && i+2 < len(data) && data[i+1] == 0x80 && (data[i+2] == 0xA8 || data[i+2] == 0xA9):
			return false
		case escaped:
			escaped = false
		case c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		}
	}
	return utf8.Valid(data)
}

// appendEscaped appends plain JSON (plainJSON) as the inside of a JSON
// string.
func appendEscaped(out, data []byte) []byte {
	for len(data) > 0 {
		i := bytes.IndexAny(data, `"\`)
		if i < 0 {
			return append(out, data...)
		}
		out = append(out, data[:i]...)
		out = append(out, '\\', data[i])
		data = data[i+1:]
	}
	return out
}
