package core

import "errors"

// ErrorExtras returns the machine-readable fields that go with err in a JSON
// error body, beside "code" and "message". The CLI's --json output and the
// HTTP API both use it, so the two bodies cannot drift apart.
func ErrorExtras(err error) map[string]any {
	var se *SharedWriteError
	if errors.As(err, &se) {
		return map[string]any{
			"sharedPath": se.SharedPath,
			"choices":    SharedWriteChoices,
			"hint":       Companion.ShareOffCommand,
		}
	}
	return nil
}
