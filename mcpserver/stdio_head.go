package mcpserver

import (
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// head is a line's JSON-RPC members, by their exact names (as the SDK
// matches them), not yet decoded.
type head struct {
	JSONRPC                           *string
	ID, Method, Params, Result, Error json.RawMessage
}

// readHead splits a JSON object into its members; ok is false when line
// is no object or "jsonrpc" is no string.
func readHead(line []byte) (h head, ok bool) {
	if line[0] != '{' {
		return head{}, false
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(line, &m) != nil {
		return head{}, false
	}
	if v, set := m["jsonrpc"]; set {
		h.JSONRPC = new(string)
		if json.Unmarshal(v, h.JSONRPC) != nil {
			return head{}, false
		}
	}
	h.ID, h.Method, h.Params, h.Result, h.Error = m["id"], m["method"], m["params"], m["result"], m["error"]
	return h, true
}

// request is the request h holds, as jsonrpc.DecodeMessage makes it.
// The SDK's decoder takes a 32 KB buffer for each message and for its
// method, more garbage than a list call's whole page.
func (h head) request() (*jsonrpc.Request, error) {
	var id any
	if len(h.ID) > 0 {
		if err := json.Unmarshal(h.ID, &id); err != nil {
			return nil, err
		}
	}
	rid, err := jsonrpc.MakeID(id)
	if err != nil {
		return nil, err
	}
	var method string
	if err := json.Unmarshal(h.Method, &method); err != nil {
		return nil, err
	}
	return &jsonrpc.Request{ID: rid, Method: method, Params: h.Params}, nil
}
