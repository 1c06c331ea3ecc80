package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxFrame bounds one line of input. A longer line is answered with an
// invalid-request error and skipped, so a client cannot make charter hold
// unbounded input in memory.
const MaxFrame = 16 << 20

// StdioTransport is the stdio transport of the MCP spec (one JSON-RPC
// message per line), held to JSON-RPC 2.0 where the SDK's own IOTransport
// ends the session instead:
//   - a line that is not JSON is answered with -32700 and id null, and a
//     JSON value that is not a JSON-RPC message with -32600; the server
//     reads on;
//   - a batch (an array) is answered with -32600: MCP 2025-06-18 removed
//     batching;
//   - at the end of input, every request already read is answered before
//     the session ends;
//   - a request the client cancelled (notifications/cancelled) gets no
//     reply, as the cancellation utility asks;
//   - a request before initialize is refused with -32600, not code 0.
type StdioTransport struct {
	In  io.Reader
	Out io.Writer
}

// Connect implements mcp.Transport.
func (t *StdioTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	held, _ := ctx.Value(heldKey{}).(*heldResults)
	c := &stdioConn{
		out:       t.Out,
		held:      held,
		frames:    make(chan frame),
		closed:    make(chan struct{}),
		pending:   map[string]bool{},
		cancelled: map[string]bool{},
		preInit:   map[string]bool{},
		idle:      make(chan struct{}, 1),
	}
	go c.readLoop(t.In)
	return c, nil
}

// frame is one message read, or the error that ended the input.
type frame struct {
	msg jsonrpc.Message
	err error
}

type stdioConn struct {
	out       io.Writer
	held      *heldResults // results the SDK passes on as stand-ins (Server.Run)
	writeMu   sync.Mutex
	buf       []byte // the last reply's bytes, reused for the next (under writeMu)
	frames    chan frame
	closed    chan struct{}
	closeOnce sync.Once

	mu          sync.Mutex
	initialized bool            // an initialize request has been read
	pending     map[string]bool // calls read and not yet answered
	cancelled   map[string]bool // calls the client cancelled: their replies are dropped
	preInit     map[string]bool // calls read before initialize
	idle        chan struct{}   // signalled when pending becomes empty
}

func (c *stdioConn) SessionID() string { return "" }

func (c *stdioConn) Close() error {
	c.closeOnce.Do(func() { close(c.closed) })
	return nil
}

// Read returns the next message. At the end of input it first waits until
// every request read has been answered (or cancelled).
func (c *stdioConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case f := <-c.frames:
		if f.err == nil {
			return f.msg, nil
		}
		for !c.drained() {
			select {
			case <-c.idle:
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-c.closed:
				return nil, f.err
			}
		}
		return nil, f.err
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.closed:
		return nil, io.EOF
	}
}

func (c *stdioConn) drained() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.pending) == 0
}

// Write sends msg on one line, unless it answers a cancelled request.
func (c *stdioConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if r, ok := msg.(*jsonrpc.Response); ok {
		if wire, ok := c.held.take(r.Result); ok {
			full := *r
			full.Result = wire
			msg, r = &full, &full
		}
		key := idKey(r.ID)
		c.mu.Lock()
		drop := c.cancelled[key]
		delete(c.cancelled, key)
		if c.preInit[key] {
			delete(c.preInit, key)
			// The SDK refuses it with a plain error, which goes out as code 0.
			var we *jsonrpc.Error
			if r.Error != nil && (!errors.As(r.Error, &we) || we.Code == 0) {
				msg = &jsonrpc.Response{ID: r.ID, Error: &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: r.Error.Error() + ": send initialize first"}}
			}
		}
		delete(c.pending, key)
		if len(c.pending) == 0 {
			select {
			case c.idle <- struct{}{}:
			default:
			}
		}
		c.mu.Unlock()
		if drop {
			return nil
		}
	}
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	data, err := appendMessage(c.buf[:0], msg)
	if err != nil {
		return err
	}
	_, err = c.out.Write(append(data, '\n'))
	if cap(data) <= maxKeptBuffer {
		c.buf = data[:0]
	}
	return err
}

// maxKeptBuffer is the largest write buffer a connection keeps for the
// next reply: a page of 100 items is about 55 KB.
const maxKeptBuffer = 1 << 20

// appendMessage appends jsonrpc.EncodeMessage's bytes to out, but a
// successful response is put together around its result, which the SDK
// encoded compact: the SDK would scan and copy the whole result once
// more (a page of a list tool is tens of kilobytes).
func appendMessage(out []byte, msg jsonrpc.Message) ([]byte, error) {
	r, ok := msg.(*jsonrpc.Response)
	if !ok || r.Error != nil || len(r.Result) == 0 || !r.ID.IsValid() {
		data, err := jsonrpc.EncodeMessage(msg)
		return append(out, data...), err
	}
	var idBuf bytes.Buffer
	enc := json.NewEncoder(&idBuf)
	enc.SetEscapeHTML(false) // as the SDK writes an id
	if err := enc.Encode(r.ID.Raw()); err != nil {
		return nil, err
	}
	id := bytes.TrimSuffix(idBuf.Bytes(), []byte("\n"))
	out = slices.Grow(out, len(r.Result)+len(id)+len(`{"jsonrpc":"2.0","id":,"result":}`)+1)
	out = append(out, `{"jsonrpc":"2.0","id":`...)
	out = append(out, id...)
	out = append(out, `,"result":`...)
	out = append(out, r.Result...)
	return append(out, '}'), nil
}

func (c *stdioConn) writeLine(data []byte) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_, err := c.out.Write(append(data, '\n'))
	return err
}

// readLoop reads lines until the input ends, answering the ones that are
// not messages itself and handing the rest to Read.
func (c *stdioConn) readLoop(in io.Reader) {
	r := bufio.NewReaderSize(in, 64<<10)
	for {
		line, tooLong, err := readLine(r)
		if tooLong {
			c.reject(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("message longer than %d bytes", MaxFrame))
		} else if msg := c.decode(line); msg != nil {
			select {
			case c.frames <- frame{msg: msg}:
			case <-c.closed:
				return
			}
		}
		if err != nil {
			select {
			case c.frames <- frame{err: err}:
			case <-c.closed:
			}
			return
		}
	}
}

// readLine reads one line without its newline. A line over MaxFrame is
// read to its end and dropped.
func readLine(r *bufio.Reader) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > MaxFrame {
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return line, tooLong, err
	}
}

// decode turns a line into a message, or answers it with an error and
// returns nil.
func (c *stdioConn) decode(line []byte) jsonrpc.Message {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return nil
	}
	if !json.Valid(line) {
		c.reject(nil, jsonrpc.CodeParseError, "parse error: the line is not JSON")
		return nil
	}
	if line[0] == '[' {
		c.reject(nil, jsonrpc.CodeInvalidRequest, "batches are not supported: MCP removed JSON-RPC batching in 2025-06-18; send one message per line")
		return nil
	}
	head, ok := readHead(line)
	if !ok {
		c.reject(nil, jsonrpc.CodeInvalidRequest, "invalid request: not a JSON-RPC 2.0 object")
		return nil
	}
	id := validID(head.ID)
	if head.Method == nil && (head.Result != nil || head.Error != nil) {
		// A response: to the SDK, which matches it with its call. One it
		// cannot take is dropped: a reply to a reply could loop between peers.
		if msg, err := jsonrpc.DecodeMessage(line); err == nil && id != nil && head.JSONRPC != nil && *head.JSONRPC == "2.0" {
			return msg
		}
		return nil
	}
	if head.Method == nil {
		c.reject(id, jsonrpc.CodeInvalidRequest, `invalid request: no "method"`)
		return nil
	}
	msg, err := head.request()
	switch {
	case head.JSONRPC == nil || *head.JSONRPC != "2.0":
		c.reject(id, jsonrpc.CodeInvalidRequest, `invalid request: "jsonrpc" must be "2.0"`)
		return nil
	case string(head.ID) == "null" || (len(head.ID) > 0 && id == nil):
		c.reject(nil, jsonrpc.CodeInvalidRequest, "invalid request: the id must be a string or an integer")
		return nil
	case err != nil:
		c.reject(id, jsonrpc.CodeInvalidRequest, "invalid request: the method must be a string")
		return nil
	}
	c.note(msg)
	return msg
}

// validID is the raw id when it is a string or a number, else nil.
func validID(raw json.RawMessage) json.RawMessage {
	var v any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil {
		return nil
	}
	switch v.(type) {
	case string, float64:
		return raw
	}
	return nil
}

// note records what later writes depend on: calls to answer, cancellations
// and calls before initialize.
func (c *stdioConn) note(req *jsonrpc.Request) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if req.IsCall() {
		key := idKey(req.ID)
		c.pending[key] = true
		if req.Method == "initialize" {
			c.initialized = true
		} else if !c.initialized {
			c.preInit[key] = true
		}
		return
	}
	if req.Method != "notifications/cancelled" {
		return
	}
	var p struct {
		RequestID any `json:"requestId"`
	}
	if json.Unmarshal(req.Params, &p) != nil {
		return
	}
	id, err := jsonrpc.MakeID(p.RequestID)
	if key := idKey(id); err == nil && c.pending[key] {
		// No reply is owed any more: the end of input need not wait for it.
		c.cancelled[key] = true
		delete(c.pending, key)
		if len(c.pending) == 0 {
			select {
			case c.idle <- struct{}{}:
			default:
			}
		}
	}
}

// reject answers a line that is not a message. id is the raw id when one
// could be read, else the reply's id is null.
func (c *stdioConn) reject(id json.RawMessage, code int, message string) {
	if id == nil {
		id = json.RawMessage("null")
	}
	data, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   jsonrpc.Error   `json:"error"`
	}{"2.0", id, jsonrpc.Error{Code: int64(code), Message: message}})
	if err == nil {
		_ = c.writeLine(data) // a client that stopped reading gets nothing either way
	}
}

func idKey(id jsonrpc.ID) string { return fmt.Sprintf("%T:%v", id.Raw(), id.Raw()) }
