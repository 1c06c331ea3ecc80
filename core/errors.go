package core

import (
	"fmt"
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

// The error vocabulary is errcode's; these are its names for the domain
// packages, which spell errors core.X.
type (
	Error     = errcode.Error
	ErrorBody = errcode.Body
)

// ErrorCode is errcode.Of.
func ErrorCode(err error) string { return errcode.Of(err) }

// ErrorExtras is errcode.Extras.
func ErrorExtras(err error) map[string]any { return errcode.Extras(err) }

// NewErrorBody is errcode.NewBody.
func NewErrorBody(err error, message string) ErrorBody { return errcode.NewBody(err, message) }

// Errorf is errcode.Errorf.
func Errorf(code, format string, args ...any) *Error { return errcode.Errorf(code, format, args...) }

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

// ReadersText names the profiles that read the shared source, Choices
// are the two a client must offer and Hint what the companion's command
// for profile-local files would do: the texts a skin prints the error with.
func (e *SharedWriteError) ReadersText() string { return ReadersText(e.Readers) }
func (e *SharedWriteError) Choices() []string   { return SharedWriteChoices() }
func (e *SharedWriteError) Hint() string        { return ShareOffHint() }

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
