package errcode

import (
	"bytes"
	"errors"
	"fmt"
	"maps"

	"github.com/agentkit/charter/helpers/jsondoc"
)

// The error vocabulary lives here, in the ground, so the skins build and
// classify errors without reaching into the domain; core names each of
// these again for the domain packages (core.Errorf, core.ErrorCode, ...).

// coder is every domain error: it names its code.
type coder interface {
	error
	Code() string
}

// Of returns the code of the first error in err's chain that has one, or
// Internal. Every skin calls it and nothing else to classify an error, so
// they can never disagree.
func Of(err error) string {
	var c coder
	if errors.As(err, &c) {
		if code := c.Code(); code != "" {
			return code
		}
	}
	return Internal
}

// extrasError is an error that carries machine-readable fields.
type extrasError interface {
	error
	Extras() map[string]any
}

// Extras returns the machine-readable fields that go with err in a JSON
// error body, beside "code" and "message": those of the first error in the
// chain that has an Extras method. NewBody puts them in every skin's body.
func Extras(err error) map[string]any {
	var xe extrasError
	if errors.As(err, &xe) {
		return xe.Extras()
	}
	return nil
}

// Body is what the one JSON error document, {"error": body}, carries: the
// error's code, the message for people, and its extras beside them. The
// CLI's --json, the HTTP API and the MCP server all build it with NewBody,
// so the three cannot drift apart.
type Body struct {
	Code    string         `json:"code"`
	Message string         `json:"message"`
	Extras  map[string]any `json:"-"` // written beside code and message
}

// NewBody is err's body. message is its text for people, which a skin may
// word differently from err.Error() (System.ErrorMessage).
func NewBody(err error, message string) Body {
	return Body{Code: Of(err), Message: message, Extras: Extras(err)}
}

// Document is the whole error document, {"error": b}.
func (b Body) Document() map[string]any { return map[string]any{"error": b} }

// MarshalJSON flattens the extras beside code and message. It escapes no
// HTML itself: the encoder around it decides, as for any other value.
func (b Body) MarshalJSON() ([]byte, error) {
	m := make(map[string]any, len(b.Extras)+2)
	maps.Copy(m, b.Extras)
	m["code"], m["message"] = b.Code, b.Message
	data, err := jsondoc.Encode(m, "", "")
	if err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(data, []byte("\n")), nil
}

// Error is a domain error that needs no fields of its own: a code, the
// message for people, and the cause when there is one.
type Error struct {
	Kind  string         // the code, one of the constants above
	Msg   string         // what went wrong and what to do, lowercase
	Extra map[string]any // fields for the JSON error body, if any
	Err   error          // the cause, if any
}

// Errorf builds an *Error with a formatted message. A %w verb makes its
// operand the cause, as with fmt.Errorf.
func Errorf(code, format string, args ...any) *Error {
	err := fmt.Errorf(format, args...)
	return &Error{Kind: code, Msg: err.Error(), Err: errors.Unwrap(err)}
}

func (e *Error) Error() string { return e.Msg }
func (e *Error) Code() string  { return e.Kind }
func (e *Error) Unwrap() error { return e.Err }

// Extras are the error's own, else its cause's: wrapping a shared write
// in another code keeps the link and the choices in the body.
func (e *Error) Extras() map[string]any {
	if e.Extra != nil {
		return e.Extra
	}
	return Extras(e.Err)
}
