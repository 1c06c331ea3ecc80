package commands

import (
	"fmt"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/errcode"
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

// exitStatuses says what each status means, for `charter help exit-codes`
// and the man page; the error codes under each come from exitFor.
var exitStatuses = []struct {
	Status  ExitCode
	Meaning string
}{
	{ExitOK, "done"},
	{ExitRuntime, "something went wrong at run time"},
	{ExitUsage, "bad command line or invalid value"},
	{ExitNoServer, "no running server for this scope"},
	{ExitSharedWrite, "write not done: it would pass through a link agent-switch shares between profiles (cancelled or not confirmed)"},
	{ExitCheckFailed, "a check ran and found a problem: apply --check out of date, gate run a gate failed or timed out, doctor a failing check"},
	{ExitNotSupported, "not supported: a required capability is missing"},
}

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
	case core.CodeInternal, core.CodeNoHome, core.CodeStaleETag, core.CodeReadOnlyFile, core.CodeNotWritable, core.CodeNoBrowser,
		core.CodeGateRunning, core.CodeMalformedSettings, core.CodeMalformedMarkers,
		core.CodeMalformedPolicy, core.CodeMalformedMCPJSON, core.CodeMalformedAgentSettings, core.CodeMalformedReport,
		core.CodeMalformedContent, core.CodeItemExists, core.CodeLinkLoop, core.CodeServerRunning, core.CodeScopeExists,
		core.CodeIsDirectory, core.CodeNotDirectory, core.CodeNotRegularFile, core.CodeChangedDuringWrite, core.CodeNotAbsolute,
		core.CodeOutsideProject, core.CodeTooLarge, core.CodeForeignOwner, core.CodeUntrusted,
		core.CodeGitDir, core.CodeLinkedTarget, core.CodeDanglingLink,
		core.CodeProjectionConflict, core.CodeLibraryTooLarge,
		// a server's answers to charter's own requests
		core.CodeNotFound, core.CodeMethodNotAllowed, core.CodePayloadTooLarge,
		core.CodePreconditionRequired, core.CodeUnauthorized, core.CodeForbiddenOrigin,
		core.CodeMisdirectedRequest:
		return ExitRuntime, true
	}
	return ExitRuntime, false
}

// exitError is the one way a command leaves with more than its error's
// code says; fail handles it and every other error, and nothing else picks
// an exit status. It carries the status and what is left to print.
type exitError struct {
	status ExitCode
	// err goes to stderr, as any error does; nil when the command already
	// said all it had to say.
	err error
	// printed: the command already printed its outcome as the one JSON
	// document, so --json adds no error document to stdout.
	printed bool
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", int(e.status))
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// exitQuietly ends the command with status and prints nothing more (the
// Stop hook, whose stderr Claude Code hands to the agent as it is; Kong
// after the help).
func exitQuietly(status ExitCode) error { return &exitError{status: status} }

// reported is a failure whose outcome the command already printed as its
// one JSON document (apply's per-target report): it goes to stderr only,
// so stdout still holds exactly one document. Its code picks the status.
func reported(err error) error {
	status, _ := exitFor(errcode.Of(err))
	return &exitError{status: status, err: err, printed: true}
}
