package mcpserver

import (
	"encoding/json"
	"errors"
	"maps"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/apply"
	"github.com/agentkit/charter/core/settings"
)

// ErrorBody is the body of a JSON error, as the CLI's --json prints it
// under "error": a stable code, the message, and the error's extras.
type ErrorBody struct {
	Code    string         `json:"code"`
	Message string         `json:"message"`
	Extras  map[string]any `json:"-"`
}

// MarshalJSON flattens the extras beside code and message, as the CLI does.
func (b ErrorBody) MarshalJSON() ([]byte, error) {
	m := map[string]any{}
	maps.Copy(m, b.Extras)
	m["code"], m["message"] = b.Code, b.Message
	return json.Marshal(m)
}

func errorBody(err error) ErrorBody {
	return ErrorBody{Code: errorCode(err), Message: err.Error(), Extras: core.ErrorExtras(err)}
}

// coder is an error that names its own code.
type coder interface {
	error
	Code() string
}

// errorCode maps err to the code the CLI's --json gives it.
// TODO(lead): core.ErrorCode replaces this once every error carries a code.
func errorCode(err error) string {
	var (
		c  coder
		ue *core.UsageError
		se *core.SharedWriteError
		sy *settings.SyntaxError
		me *apply.MarkerError
	)
	switch {
	case errors.As(err, &c):
		return c.Code()
	case errors.As(err, &se):
		return "shared_write"
	case errors.As(err, &sy):
		return "malformed_settings"
	case errors.As(err, &me):
		return "malformed_markers"
	case errors.As(err, &ue):
		return ue.CodeOr("usage")
	}
	return "runtime"
}

// codedError is an error of this package with its code.
type codedError struct {
	code string
	msg  string
}

func (e *codedError) Error() string { return e.msg }
func (e *codedError) Code() string  { return e.code }
