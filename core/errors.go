package core

import (
	"errors"
	"fmt"
)

// Every domain error carries one of these codes through a Code method. The
// CLI maps a code to its exit status and the HTTP API to its status, each
// with one table; Codes lists them all, so a test can hold both tables to
// the whole vocabulary.
const (
	// CodeInternal is the code of an error nobody gave one: the operating
	// system failed (a read, a write) or charter has a bug.
	CodeInternal = "internal"

	// Bad input from the user or a client.
	CodeUsage                = "usage"                 // the command line
	CodeInvalidRequest       = "invalid_request"       // a request of the wrong shape
	CodeInvalidJSON          = "invalid_json"          // a body that is not JSON at all
	CodeInvalidValue         = "invalid_value"         // a setting's value
	CodeUnknownKey           = "unknown_key"           // a setting the schema does not have
	CodeUnknownID            = "unknown_id"            // a recommendation that does not exist
	CodeUnknownAgent         = "unknown_agent"         // --agent names no known agent
	CodeNoAgent              = "no_agent"              // no agent to write for
	CodeScalarParent         = "scalar_parent"         // a key below a value that is not a mapping
	CodeLockedByPolicy       = "locked_by_policy"      // a policy layer fixes the key
	CodeNotFound             = "not_found"             // no such resource
	CodeMethodNotAllowed     = "method_not_allowed"    // the resource exists, the method does not
	CodePayloadTooLarge      = "payload_too_large"     // a request body over the cap
	CodePreconditionRequired = "precondition_required" // a write without If-Match
	CodeUnauthorized         = "unauthorized"          // no or a wrong bearer token
	CodeForbiddenOrigin      = "forbidden_origin"      // a foreign Origin
	CodeMisdirectedRequest   = "misdirected_request"   // a foreign Host

	// The write was not done, on purpose.
	CodeSharedWrite  = "shared_write"   // it would pass through a link the companion shares
	CodeCancelled    = "cancelled"      // the user declined a shared write
	CodeStaleETag    = "stale_etag"     // the file changed since it was read
	CodeReadOnlyFile = "read_only_file" // the target cannot be written
	CodeGateRunning  = "gate_running"   // another gate run is under way
	CodeUntrusted    = "untrusted"      // a project's command that the user has not trusted

	// The file system is not shaped as a write needs (core/fsys spells
	// these codes itself: it sits below core and cannot import it).
	CodeIsDirectory        = "is_directory"
	CodeNotDirectory       = "not_directory"
	CodeNotRegularFile     = "not_regular_file"
	CodeChangedDuringWrite = "changed_during_write"
	CodeNotAbsolute        = "not_absolute"
	CodeOutsideProject     = "outside_project" // a repository's link leads out of the project
	CodeTooLarge           = "file_too_large"  // a file over the size charter reads of its kind
	CodeForeignOwner       = "foreign_owner"   // a project owned by another user

	// A file charter has to read is broken; it is never rewritten.
	CodeMalformedSettings      = "malformed_settings"
	CodeMalformedMarkers       = "malformed_markers"
	CodeLinkLoop               = "link_loop"
	CodeMalformedPolicy        = "malformed_policy"
	CodeMalformedMCPJSON       = "malformed_mcp_json"
	CodeMalformedAgentSettings = "malformed_agent_settings" // an agent's settings.json
	CodeMalformedReport        = "malformed_report"         // a coverage report

	// The machine or the other side.
	CodeNoHome        = "no_home"        // the home directory is unknown
	CodeNoServer      = "no_server"      // no live server for this scope
	CodeServerRunning = "server_running" // a live server already serves this scope
	CodeNotSupported  = "not_supported"  // a required capability is missing

	// A check ran and found a problem.
	CodeOutdated    = "outdated"     // apply --check: agent files out of date
	CodeCheckFailed = "check_failed" // a gate or another check failed
)

// Codes lists every code, CodeInternal included.
func Codes() []string {
	return []string{
		CodeInternal,
		CodeUsage, CodeInvalidRequest, CodeInvalidJSON, CodeInvalidValue, CodeUnknownKey,
		CodeUnknownID, CodeUnknownAgent, CodeNoAgent, CodeScalarParent, CodeLockedByPolicy,
		CodeNotFound, CodeMethodNotAllowed, CodePayloadTooLarge, CodePreconditionRequired,
		CodeUnauthorized, CodeForbiddenOrigin, CodeMisdirectedRequest,
		CodeSharedWrite, CodeCancelled, CodeStaleETag, CodeReadOnlyFile, CodeGateRunning, CodeUntrusted,
		CodeIsDirectory, CodeNotDirectory, CodeNotRegularFile, CodeChangedDuringWrite, CodeNotAbsolute,
		CodeOutsideProject, CodeTooLarge, CodeForeignOwner,
		CodeMalformedSettings, CodeMalformedMarkers, CodeLinkLoop, CodeMalformedPolicy, CodeMalformedMCPJSON,
		CodeMalformedAgentSettings, CodeMalformedReport,
		CodeNoHome, CodeNoServer, CodeServerRunning, CodeNotSupported,
		CodeOutdated, CodeCheckFailed,
	}
}

// coder is every domain error: it names its code.
type coder interface {
	error
	Code() string
}

// ErrorCode returns the code of the first error in err's chain that has
// one, or CodeInternal. Both skins call it and nothing else to classify an
// error, so they can never disagree.
func ErrorCode(err error) string {
	var c coder
	if errors.As(err, &c) {
		if code := c.Code(); code != "" {
			return code
		}
	}
	return CodeInternal
}

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

// Error is a domain error that needs no fields of its own: a code, the
// message for people, and the cause when there is one.
type Error struct {
	Kind  string         // the code, one of the Code constants
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
	return ErrorExtras(e.Err)
}

// ErrNoHome means the home directory is needed but unknown.
var ErrNoHome error = &Error{Kind: CodeNoHome, Msg: "home directory unknown: set HOME"}

// UsageError is bad input from the user: the command line or a request.
type UsageError struct {
	Kind string // a more precise code (unknown_id, no_agent…); empty means usage
	Msg  string
}

func (e *UsageError) Error() string { return e.Msg }

// Code is Kind, or usage when the error has no more precise one.
func (e *UsageError) Code() string {
	if e.Kind != "" {
		return e.Kind
	}
	return CodeUsage
}

// The two choices a client must offer when a write would pass through a
// shared link; nothing else may be offered.
const (
	ChoiceWriteShared = "Write (affects all profiles)"
	ChoiceCancel      = "Cancel"
)

// SharedWriteChoices lists the two choices in the order they are offered.
func SharedWriteChoices() []string { return []string{ChoiceWriteShared, ChoiceCancel} }

// SharedWriteError is the typed result of a write that was not done because
// its target lies behind a link the companion shares between profiles.
type SharedWriteError struct {
	Target     string // the path charter meant to write
	SharedPath string // the first symbolic link found on the way
}

func (e *SharedWriteError) Error() string {
	return fmt.Sprintf("%s lies behind %s, a link agent-switch shares between profiles: a write there affects all profiles; confirm with %q (--confirm-shared), or run `%s` for profile-local writes",
		e.Target, e.SharedPath, ChoiceWriteShared, CompanionShareOffCommand)
}

func (e *SharedWriteError) Code() string { return CodeSharedWrite }

// SharedKind is "file" when the link is the target itself, else "dir": a
// link found above the target is a folder on its way.
func (e *SharedWriteError) SharedKind() string {
	if e.SharedPath == e.Target {
		return "file"
	}
	return "dir"
}

// Extras names the link, whether it is the file itself or a folder above
// it, and the two choices a client must offer.
func (e *SharedWriteError) Extras() map[string]any {
	return map[string]any{
		"sharedPath": e.SharedPath,
		"sharedKind": e.SharedKind(),
		"choices":    SharedWriteChoices(),
		"hint":       CompanionShareOffCommand,
	}
}
