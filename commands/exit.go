package commands

import (
	"errors"
	"fmt"

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

// exitFor is the one place where error codes meet exit statuses: every
// code of core's vocabulary is listed here, grouped by its status, and
// nothing else picks one. ok is false for a code it lacks, which exits 1.
func exitFor(code string) (_ ExitCode, ok bool) {
	switch code {
	case core.CodeUsage, core.CodeInvalidRequest, core.CodeInvalidJSON, core.CodeInvalidValue,
		core.CodeUnknownKey, core.CodeUnknownID, core.CodeUnknownAgent, core.CodeNoAgent,
		core.CodeScalarParent, core.CodeLockedByPolicy:
		return ExitUsage, true
	case core.CodeNoServer:
		return ExitNoServer, true
	case core.CodeSharedWrite, core.CodeCancelled:
		return ExitSharedWrite, true
	case core.CodeOutdated, core.CodeCheckFailed:
		return ExitCheckFailed, true
	case core.CodeNotSupported:
		return ExitNotSupported, true
	case core.CodeInternal, core.CodeNoHome, core.CodeStaleETag, core.CodeReadOnlyFile,
		core.CodeGateRunning, core.CodeMalformedSettings, core.CodeMalformedMarkers,
		core.CodeMalformedPolicy, core.CodeMalformedMCPJSON, core.CodeMalformedAgentSettings, core.CodeMalformedReport,
		core.CodeLinkLoop, core.CodeServerRunning,
		core.CodeIsDirectory, core.CodeNotDirectory, core.CodeNotRegularFile, core.CodeChangedDuringWrite, core.CodeNotAbsolute,
		core.CodeOutsideProject, core.CodeTooLarge, core.CodeForeignOwner, core.CodeUntrusted,
		// a server's answers to charter's own requests
		core.CodeNotFound, core.CodeMethodNotAllowed, core.CodePayloadTooLarge,
		core.CodePreconditionRequired, core.CodeUnauthorized, core.CodeForbiddenOrigin,
		core.CodeMisdirectedRequest:
		return ExitRuntime, true
	}
	return ExitRuntime, false
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

// quietExit ends the command with this status and prints nothing more: the
// command already printed all it had to say (the Stop hook, whose stderr
// Claude Code hands to the agent as it is).
type quietExit ExitCode

func (e quietExit) Error() string { return fmt.Sprintf("exit status %d", int(e)) }
