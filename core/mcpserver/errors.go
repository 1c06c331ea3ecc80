package mcpserver

import (
	"encoding/json"
	"maps"

	"github.com/agentkit/charter/core"
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

// errorBody is err as the CLI's --json prints it. message gives the text
// for people (core.System.ErrorMessage): the CLI's words, not err's own.
func errorBody(err error, message func(error) string) ErrorBody {
	return ErrorBody{Code: core.ErrorCode(err), Message: message(err), Extras: core.ErrorExtras(err)}
}
