package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

const (
	initLine   = `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
	initedLine = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
)

func callLine(id int, tool, args string) string {
	return `{"jsonrpc":"2.0","id":` + itoa(id) + `,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + args + `}}`
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

// reply is one line the server wrote.
type reply struct {
	ID    json.RawMessage `json:"id"`
	Error *struct {
		Code int `json:"code"`
	} `json:"error"`
	Result json.RawMessage `json:"result"`
}

// rawSession runs the server over StdioTransport with input written by
// the test; replies gives each line the server writes, and done is closed
// with Run's error when the server ends.
func rawSession(t *testing.T, srv *Server) (in io.WriteCloser, replies <-chan reply, done <-chan error) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ch, errc := make(chan reply, 64), make(chan error, 1)
	go func() {
		err := srv.Run(watched(t), &StdioTransport{In: inR, Out: outW})
		outW.Close()
		errc <- err
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			var r reply
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				t.Errorf("server wrote a line that is not JSON: %s", sc.Bytes())
			}
			ch <- r
		}
		close(ch)
	}()
	return inW, ch, errc
}

func send(t *testing.T, w io.Writer, lines ...string) {
	t.Helper()
	for _, l := range lines {
		if _, err := io.WriteString(w, l+"\n"); err != nil {
			t.Fatal(err)
		}
	}
}

func next(t *testing.T, ch <-chan reply) reply {
	t.Helper()
	r, ok := <-ch
	if !ok {
		t.Fatal("the server stopped writing")
	}
	return r
}

// TestStdioMalformedFrames: each bad line gets its JSON-RPC error, and the
// server answers the next request.
func TestStdioMalformedFrames(t *testing.T) {
	e := newEnv(t)
	in, replies, done := rawSession(t, e.server())
	for _, c := range []struct {
		line string
		code int
		id   string
	}{
		{`{"jsonrpc":"2.0","id":1,"method":`, jsonrpc.CodeParseError, "null"},
		{`not json at all`, jsonrpc.CodeParseError, "null"},
		{`{"hello":"world"}`, jsonrpc.CodeInvalidRequest, "null"},
		{`42`, jsonrpc.CodeInvalidRequest, "null"},
		{`[{"jsonrpc":"2.0","id":2,"method":"ping"}]`, jsonrpc.CodeInvalidRequest, "null"},
		{`[]`, jsonrpc.CodeInvalidRequest, "null"},
		{`{"jsonrpc":"1.0","id":3,"method":"ping"}`, jsonrpc.CodeInvalidRequest, "3"},
		{`{"jsonrpc":"2.0","id":4,"method":5}`, jsonrpc.CodeInvalidRequest, "4"},
		{`{"jsonrpc":"2.0","id":null,"method":"ping"}`, jsonrpc.CodeInvalidRequest, "null"},
	} {
		send(t, in, c.line)
		r := next(t, replies)
		if r.Error == nil || r.Error.Code != c.code || string(r.ID) != c.id {
			t.Errorf("%s: reply id %s error %+v, want id %s code %d", c.line, r.ID, r.Error, c.id, c.code)
		}
	}
	// Still up: the handshake and a call work.
	send(t, in, initLine, initedLine, callLine(5, "settings_get", `{"key":"rules.tier"}`))
	if r := next(t, replies); string(r.ID) != `"init"` || r.Error != nil {
		t.Fatalf("initialize: %+v", r)
	}
	if r := next(t, replies); string(r.ID) != "5" || r.Result == nil {
		t.Fatalf("settings_get: %+v", r)
	}
	in.Close()
	if err := <-done; err != nil {
		t.Errorf("run: %v", err)
	}
}

// TestStdioEOF: requests written just before the input closes are all
// answered, and a frame cut by the end of input gets a parse error.
func TestStdioEOF(t *testing.T) {
	e := newEnv(t)
	in, replies, done := rawSession(t, e.server())
	send(t, in, initLine, initedLine,
		callLine(1, "settings_get", `{"key":"rules.tier"}`),
		callLine(2, "settings_explain", `{"key":"rules.tier"}`),
		callLine(3, "status", `{}`))
	io.WriteString(in, `{"jsonrpc":"2.0","id":4,"method":"tools/ca`)
	in.Close()
	got := map[string]bool{}
	for r := range replies {
		if r.Error != nil && r.Error.Code == jsonrpc.CodeParseError {
			got["cut"] = true
			continue
		}
		got[string(r.ID)] = r.Result != nil
	}
	for _, id := range []string{`"init"`, "1", "2", "3", "cut"} {
		if !got[id] {
			t.Errorf("no answer for %s (answers: %v)", id, got)
		}
	}
	if err := <-done; err != nil {
		t.Errorf("run: %v", err)
	}
}

// TestStdioPreInitialize: a request before initialize is refused with
// Invalid Request, not code 0, and the session can still start.
func TestStdioPreInitialize(t *testing.T) {
	e := newEnv(t)
	in, replies, done := rawSession(t, e.server())
	send(t, in, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	if r := next(t, replies); string(r.ID) != "1" || r.Error == nil || r.Error.Code != jsonrpc.CodeInvalidRequest {
		t.Errorf("tools/list before initialize: %+v", r)
	}
	send(t, in, initLine, initedLine, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	next(t, replies)
	if r := next(t, replies); string(r.ID) != "2" || r.Error != nil {
		t.Errorf("tools/list after initialize: %+v", r)
	}
	in.Close()
	<-done
}

// TestStdioCancelledGetsNoReply holds the connection to the cancellation
// utility: once the client cancels a request, its reply is not written.
func TestStdioCancelledGetsNoReply(t *testing.T) {
	inR, inW := io.Pipe()
	var out bytes.Buffer
	conn, err := (&StdioTransport{In: inR, Out: &out}).Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ctx := watched(t)
	go io.WriteString(inW, callLine(7, "gates_run", `{}`)+"\n"+callLine(8, "status", `{}`)+"\n"+
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"user"}}`+"\n")
	for range 3 {
		if _, err := conn.Read(ctx); err != nil {
			t.Fatal(err)
		}
	}
	for _, id := range []int64{7, 8} {
		jid, _ := jsonrpc.MakeID(float64(id))
		if err := conn.Write(ctx, &jsonrpc.Response{ID: jid, Result: json.RawMessage(`{}`)}); err != nil {
			t.Fatal(err)
		}
	}
	if got := out.String(); strings.Contains(got, `"id":7`) || !strings.Contains(got, `"id":8`) {
		t.Errorf("written:\n%s\nwant the reply to 8 and none to the cancelled 7", got)
	}
	// The end of input does not wait for the cancelled call.
	inW.Close()
	if _, err := conn.Read(ctx); err != io.EOF {
		t.Errorf("read at the end of input: %v, want EOF", err)
	}
}

// A response put together around its result is what the SDK's encoder
// writes; every other message goes through that encoder.
func TestEncodeMessageIsTheSDKs(t *testing.T) {
	var msgs []jsonrpc.Message
	for _, v := range []any{float64(7), "call-\"1\"<x>"} {
		id, err := jsonrpc.MakeID(v)
		if err != nil {
			t.Fatal(err)
		}
		msgs = append(msgs,
			&jsonrpc.Response{ID: id, Result: json.RawMessage(`{"content":[],"text":"a\"b<c>"}`)},
			&jsonrpc.Response{ID: id, Error: &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "no"}},
			&jsonrpc.Request{ID: id, Method: "ping"})
	}
	for _, m := range msgs {
		want, err := jsonrpc.EncodeMessage(m)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := appendMessage(nil, m); err != nil || !bytes.Equal(got, want) {
			t.Errorf("%v\n got %s\nwant %s", err, got, want)
		}
	}
}
