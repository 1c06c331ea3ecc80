package commands

import (
	"errors"

	"github.com/agentkit/charter/core"
)

// ExitCode is charter's process exit status; scripts branch on it.
type ExitCode int

const (
	ExitOK           ExitCode = 0 // done
	ExitRuntime      ExitCode = 1 // something went wrong at run time
	ExitUsage        ExitCode = 2 // bad command line or invalid value
	ExitNoServer     ExitCode = 3 // no running server for this scope
	ExitSharedWrite  ExitCode = 4 // write not done: it would pass through a shared link
	ExitCheckFailed  ExitCode = 5 // a check ran and found a problem
	ExitNotSupported ExitCode = 6 // a required capability is missing
)

// exits is the one place where error codes meet exit statuses: each code of
// core's vocabulary has its status here, and nothing else picks one.
var exits = map[string]ExitCode{
	core.CodeInternal: ExitRuntime,

	core.CodeUsage:                ExitUsage,
	core.CodeInvalidRequest:       ExitUsage,
	core.CodeInvalidJSON:          ExitUsage,
	core.CodeInvalidValue:         ExitUsage,
	core.CodeUnknownKey:           ExitUsage,
	core.CodeUnknownID:            ExitUsage,
	core.CodeUnknownAgent:         ExitUsage,
	core.CodeNoAgent:              ExitUsage,
	core.CodeScalarParent:         ExitUsage,
	core.CodeLockedByPolicy:       ExitUsage,
	core.CodeNotFound:             ExitRuntime, // a server's answers: the request was charter's own
	core.CodeMethodNotAllowed:     ExitRuntime,
	core.CodePayloadTooLarge:      ExitRuntime,
	core.CodePreconditionRequired: ExitRuntime,
	core.CodeUnauthorized:         ExitRuntime,
	core.CodeForbiddenOrigin:      ExitRuntime,
	core.CodeMisdirectedRequest:   ExitRuntime,

	core.CodeSharedWrite:  ExitSharedWrite,
	core.CodeCancelled:    ExitSharedWrite,
	core.CodeStaleETag:    ExitRuntime,
	core.CodeReadOnlyFile: ExitRuntime,
	core.CodeGateRunning:  ExitRuntime,

	core.CodeMalformedSettings: ExitRuntime,
	core.CodeMalformedMarkers:  ExitRuntime,
	core.CodeLinkLoop:          ExitRuntime,

	core.CodeNoHome:        ExitRuntime,
	core.CodeNoServer:      ExitNoServer,
	core.CodeServerRunning: ExitRuntime,
	core.CodeNotSupported:  ExitNotSupported,

	core.CodeOutdated:    ExitRuntime,
	core.CodeCheckFailed: ExitCheckFailed,
}

// exitFor is the exit status of an error code; a code the table lacks is a
// runtime error.
func exitFor(code string) ExitCode {
	if c, ok := exits[code]; ok {
		return c
	}
	return ExitRuntime
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
