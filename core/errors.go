package core

import "errors"

// extrasError is an error that carries machine-readable fields.
type extrasError interface {
	error
	Extras() map[string]any
}

// ErrorExtras returns the machine-readable fields that go with err in a JSON
// error body, beside "code" and "message": those of the first error in the
// chain that has an Extras method. The CLI's --json output and the HTTP API
// both use it, so the two bodies cannot drift apart.
func ErrorExtras(err error) map[string]any {
	var xe extrasError
	if errors.As(err, &xe) {
		return xe.Extras()
	}
	return nil
}

// Extras names the link and the two choices a client must offer.
func (e *SharedWriteError) Extras() map[string]any {
	return map[string]any{
		"sharedPath": e.SharedPath,
		"choices":    SharedWriteChoices,
		"hint":       Companion.ShareOffCommand,
	}
}
