package core

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"strings"

	"github.com/agentkit/charter/core/errcode"
	"github.com/agentkit/charter/core/fsys"
)

// The codes of errcode, under the names the packages above core use. Each
// is errcode's constant, never a string of its own: errcode is the one
// definition (vocab_test holds this block to it name by name).
const (
	CodeInternal               = errcode.Internal
	CodeUsage                  = errcode.Usage
	CodeInvalidRequest         = errcode.InvalidRequest
	CodeInvalidJSON            = errcode.InvalidJSON
	CodeInvalidValue           = errcode.InvalidValue
	CodeUnknownKey             = errcode.UnknownKey
	CodeUnknownID              = errcode.UnknownID
	CodeUnknownAgent           = errcode.UnknownAgent
	CodeNoAgent                = errcode.NoAgent
	CodeScalarParent           = errcode.ScalarParent
	CodeLockedByPolicy         = errcode.LockedByPolicy
	CodeProjectionConflict     = errcode.ProjectionConflict
	CodeNotFound               = errcode.NotFound
	CodeMethodNotAllowed       = errcode.MethodNotAllowed
	CodePayloadTooLarge        = errcode.PayloadTooLarge
	CodePreconditionRequired   = errcode.PreconditionRequired
	CodeUnauthorized           = errcode.Unauthorized
	CodeForbiddenOrigin        = errcode.ForbiddenOrigin
	CodeMisdirectedRequest     = errcode.MisdirectedRequest
	CodeSharedWrite            = errcode.SharedWrite
	CodeCancelled              = errcode.Cancelled
	CodeStaleETag              = errcode.StaleETag
	CodeReadOnlyFile           = errcode.ReadOnlyFile
	CodeNotWritable            = errcode.NotWritable
	CodeNoBrowser              = errcode.NoBrowser
	CodeGateRunning            = errcode.GateRunning
	CodeUntrusted              = errcode.Untrusted
	CodeIsDirectory            = errcode.IsDirectory
	CodeNotDirectory           = errcode.NotDirectory
	CodeNotRegularFile         = errcode.NotRegularFile
	CodeChangedDuringWrite     = errcode.ChangedDuringWrite
	CodeNotAbsolute            = errcode.NotAbsolute
	CodeOutsideProject         = errcode.OutsideProject
	CodeGitDir                 = errcode.GitDir
	CodeLinkedTarget           = errcode.LinkedTarget
	CodeDanglingLink           = errcode.DanglingLink
	CodeTooLarge               = errcode.TooLarge
	CodeLibraryTooLarge        = errcode.LibraryTooLarge
	CodeForeignOwner           = errcode.ForeignOwner
	CodeMalformedSettings      = errcode.MalformedSettings
	CodeMalformedMarkers       = errcode.MalformedMarkers
	CodeLinkLoop               = errcode.LinkLoop
	CodeMalformedPolicy        = errcode.MalformedPolicy
	CodeMalformedMCPJSON       = errcode.MalformedMCPJSON
	CodeMalformedAgentSettings = errcode.MalformedAgentSettings
	CodeMalformedReport        = errcode.MalformedReport
	CodeMalformedContent       = errcode.MalformedContent
	CodeItemExists             = errcode.ItemExists
	CodeNoHome                 = errcode.NoHome
	CodeNoServer               = errcode.NoServer
	CodeServerRunning          = errcode.ServerRunning
	CodeScopeExists            = errcode.ScopeExists
	CodeNotSupported           = errcode.NotSupported
	CodeOutdated               = errcode.Outdated
	CodeCheckFailed            = errcode.CheckFailed
)

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
// chain that has an Extras method. NewErrorBody puts them in every skin's
// body.
func ErrorExtras(err error) map[string]any {
	var xe extrasError
	if errors.As(err, &xe) {
		return xe.Extras()
	}
	return nil
}

// ErrorBody is what the one JSON error document, {"error": body}, carries:
// the error's code, the message for people, and its extras beside them.
// The CLI's --json, the HTTP API and the MCP server all build it with
// NewErrorBody, so the three cannot drift apart.
type ErrorBody struct {
	Code    string         `json:"code"`
	Message string         `json:"message"`
	Extras  map[string]any `json:"-"` // written beside code and message
}

// NewErrorBody is err's body. message is its text for people, which a skin
// may word differently from err.Error() (System.ErrorMessage).
func NewErrorBody(err error, message string) ErrorBody {
	return ErrorBody{Code: ErrorCode(err), Message: message, Extras: ErrorExtras(err)}
}

// Document is the whole error document, {"error": b}.
func (b ErrorBody) Document() map[string]any { return map[string]any{"error": b} }

// MarshalJSON flattens the extras beside code and message. It escapes no
// HTML itself: the encoder around it decides, as for any other value.
func (b ErrorBody) MarshalJSON() ([]byte, error) {
	m := make(map[string]any, len(b.Extras)+2)
	maps.Copy(m, b.Extras)
	m["code"], m["message"] = b.Code, b.Message
	data, err := EncodeJSON(m, "", "")
	if err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(data, []byte("\n")), nil
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

// The two choices a client must offer when a write would pass through a
// shared link; nothing else may be offered.
const (
	ChoiceWriteShared = "Write (affects all profiles)"
	ChoiceCancel      = "Cancel"
)

// SharedWriteChoices lists the two choices in the order they are offered.
func SharedWriteChoices() []string { return []string{ChoiceWriteShared, ChoiceCancel} }

// SharedWriteError is the typed result of a write that was not done because
// its target lies behind a link the companion shares between profiles, or
// is a file or folder such a link of other profiles leads to.
type SharedWriteError struct {
	Target     string // the path charter meant to write
	SharedPath string // the first symbolic link found on the way, or the shared source
	// Readers are the profiles whose share links lead to SharedPath when
	// it is a shared source (nil for a link on the way).
	Readers []string
	// Kind is "file" or "dir" for a shared source; "" lets SharedKind
	// compare the paths.
	Kind string
}

func (e *SharedWriteError) Error() string {
	if len(e.Readers) > 0 {
		return fmt.Sprintf("%s is %s, which agent-switch shares with %s: a write there affects all of them; confirm with %q (--confirm-shared); %s",
			e.Target, e.sourceWhere(), ReadersText(e.Readers), ChoiceWriteShared, ShareOffHint())
	}
	return fmt.Sprintf("%s agent-switch shares between profiles: a write there affects all profiles; confirm with %q (--confirm-shared); %s",
		e.Behind(), ChoiceWriteShared, ShareOffHint())
}

// Behind says where the target stands to the shared link: "T lies behind
// L, a link", or "T is a link" when the target is the link itself.
func (e *SharedWriteError) Behind() string {
	if e.Target == e.SharedPath {
		return e.Target + " is a link"
	}
	return e.Target + " lies behind " + e.SharedPath + ", a link"
}

// sourceWhere says where the target stands to the shared source.
func (e *SharedWriteError) sourceWhere() string {
	if e.SharedKind() == "file" {
		return "a shared source"
	}
	return "inside the shared folder " + e.SharedPath
}

// ReadersText names the profiles that read a shared source.
func ReadersText(readers []string) string {
	if len(readers) == 1 {
		return "profile " + readers[0]
	}
	return "profiles " + strings.Join(readers[:len(readers)-1], ", ") + " and " + readers[len(readers)-1]
}

// ShareOffHint says what the companion's command for profile-local files
// really does: it has no per-profile form.
func ShareOffHint() string {
	return fmt.Sprintf("`%s` would keep profiles apart, but it stops sharing for every %s profile and copies nothing back (each profile is left without the shared files)",
		CompanionShareOffCommand, CompanionShareProvider)
}

func (e *SharedWriteError) Code() string { return CodeSharedWrite }

// Shared is what the refused write would affect (fsys.SharedError).
func (e *SharedWriteError) Shared() fsys.Shared {
	return fsys.Shared{Path: e.SharedPath, Readers: e.Readers}
}

// SharedKind is "file" when the link (or source) is the target itself,
// else "dir": one found above the target is a folder on its way.
func (e *SharedWriteError) SharedKind() string {
	if e.Kind != "" {
		return e.Kind
	}
	if e.SharedPath == e.Target {
		return "file"
	}
	return "dir"
}

// Extras names the link, whether it is the file itself or a folder above
// it, and the two choices a client must offer.
func (e *SharedWriteError) Extras() map[string]any {
	x := map[string]any{
		"sharedPath": e.SharedPath,
		"sharedKind": e.SharedKind(),
		"choices":    SharedWriteChoices(),
		"hint":       CompanionShareOffCommand,
		"hintEffect": ShareOffHint(),
	}
	if len(e.Readers) > 0 {
		x["readers"] = e.Readers
	}
	return x
}
