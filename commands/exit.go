package commands

import (
	"errors"

	"github.com/alecthomas/kong"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/settings"
)

// ExitCode is charter's process exit status; scripts branch on it.
type ExitCode int

const (
	ExitOK           ExitCode = 0 // done
	ExitRuntime      ExitCode = 1 // something went wrong at run time
	ExitUsage        ExitCode = 2 // bad command line or invalid value
	ExitNoServer     ExitCode = 3 // no running server for this scope
	ExitSharedWrite  ExitCode = 4 // write not done: it would pass through a shared link
	ExitNotSupported ExitCode = 6 // a required capability is missing
)

// exitError carries an exit code and a stable error code for --json.
type exitError struct {
	code ExitCode
	kind string
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func withExit(code ExitCode, kind string, err error) error {
	return &exitError{code: code, kind: kind, err: err}
}

// reportedError is a failure whose outcome the command already printed as
// its one JSON document (apply's per-target report): fail then prints it
// to stderr only, so stdout still holds exactly one document.
type reportedError struct{ err error }

func (e *reportedError) Error() string { return e.err.Error() }
func (e *reportedError) Unwrap() error { return e.err }

func reported(err error) bool {
	var re *reportedError
	return errors.As(err, &re)
}

// classify maps an error to its exit code and JSON error code, in one place.
func classify(err error) (ExitCode, string) {
	var ee *exitError
	var ue *core.UsageError
	var se *core.SharedWriteError
	var pe *kong.ParseError
	var ve *settings.ValidationError
	var sy *settings.SyntaxError
	switch {
	case errors.As(err, &ee):
		return ee.code, ee.kind
	case errors.As(err, &se):
		return ExitSharedWrite, "shared_write"
	case errors.As(err, &ve):
		return ExitUsage, ve.Code()
	case errors.As(err, &sy):
		return ExitRuntime, "malformed_settings"
	case errors.As(err, &ue):
		return ExitUsage, ue.CodeOr("usage")
	case errors.As(err, &pe):
		return ExitUsage, "usage"
	}
	return ExitRuntime, "runtime"
}
