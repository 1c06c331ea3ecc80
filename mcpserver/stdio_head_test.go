package mcpserver

import (
	"reflect"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// The transport's own reading of a request is the SDK's, for every
// request it passes on.
func TestRequestIsTheSDKs(t *testing.T) {
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":"a\u00e9","method":"tools/call","params":{"name":"rules_list","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":12345678901,"method":"tools/call","params":{"name":"x"}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":null,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":2,"method":"ping","params":null}`,
		`{"jsonrpc":"2.0","id":3,"method":"ping","params":[]}`,
		`{"jsonrpc":"2.0","id":4,"method":"ping","ID":5,"Params":{}}`,
		`{"jsonrpc":"2.0","id":6,"method":"a","method":"b"}`,
		`{"jsonrpc":"2.0","id":7.5,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":8,"method":"\ud83d\ude00 x\"y"}`,
	} {
		want, err := jsonrpc.DecodeMessage([]byte(line))
		if err != nil {
			t.Fatalf("%s: the SDK: %v", line, err)
		}
		h, ok := readHead([]byte(line))
		if !ok {
			t.Fatalf("%s: not read", line)
		}
		got, err := h.request()
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %#v, %v\nwant %#v", line, got, err, want)
		}
	}
}
