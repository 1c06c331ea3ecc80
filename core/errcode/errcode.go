// Package errcode is charter's one vocabulary of error codes. Every domain
// error names one of these through a Code method; the CLI maps a code to
// its exit status and the HTTP API to its status, each with one table, and
// All lists them so a test can hold both tables to the whole vocabulary.
//
// It also holds the error type, its builder and the one error document
// (error.go), so the skins build and classify errors without reaching
// into the domain. It is in the ground, importing only helpers/jsondoc:
// core/fsys and core/settings, which sit below or beside core, name their
// codes here instead of spelling them. core re-exports each one as CodeX
// for the packages above it.
package errcode

const (
	// Internal is the code of an error nobody gave one: the operating
	// system failed (a read, a write) or charter has a bug.
	Internal = "internal"

	// Bad input from the user or a client.
	Usage                = "usage"                 // the command line
	InvalidRequest       = "invalid_request"       // a request of the wrong shape
	InvalidJSON          = "invalid_json"          // a body that is not JSON at all
	InvalidValue         = "invalid_value"         // a setting's value
	UnknownKey           = "unknown_key"           // a setting the schema does not have
	UnknownID            = "unknown_id"            // a recommendation that does not exist
	UnknownAgent         = "unknown_agent"         // --agent names no known agent
	NoAgent              = "no_agent"              // no agent to write for
	ScalarParent         = "scalar_parent"         // a key below a value that is not a mapping
	LockedByPolicy       = "locked_by_policy"      // a policy layer fixes the key
	NotFound             = "not_found"             // no such resource
	MethodNotAllowed     = "method_not_allowed"    // the resource exists, the method does not
	PayloadTooLarge      = "payload_too_large"     // a request body over the cap
	PreconditionRequired = "precondition_required" // a write without If-Match
	Unauthorized         = "unauthorized"          // no or a wrong bearer token
	ForbiddenOrigin      = "forbidden_origin"      // a foreign Origin
	MisdirectedRequest   = "misdirected_request"   // a foreign Host

	// The write was not done, on purpose.
	SharedWrite  = "shared_write"   // it would pass through a link the companion shares
	Cancelled    = "cancelled"      // the user declined a shared write
	StaleETag    = "stale_etag"     // the file changed since it was read
	ReadOnlyFile = "read_only_file" // the target cannot be written
	// the directory of a write is not writable (permissions, a read-only file system)
	NotWritable = "not_writable"
	GateRunning = "gate_running" // another gate run is under way
	ItemExists  = "item_exists"  // `new` would overwrite a content source
	Untrusted   = "untrusted"    // a project's command that the user has not trusted
	// a projected file's target is foreign or was edited by hand
	ProjectionConflict = "projection_conflict"

	// The file system is not shaped as a write needs.
	IsDirectory        = "is_directory"
	NotDirectory       = "not_directory"
	NotRegularFile     = "not_regular_file"
	ChangedDuringWrite = "changed_during_write"
	NotAbsolute        = "not_absolute"
	OutsideProject     = "outside_project" // a repository's link leads out of the project
	TooLarge           = "file_too_large"  // a file over the size charter reads of its kind
	ForeignOwner       = "foreign_owner"   // a project owned by another user
	GitDir             = "git_dir"         // a project path that leads into the repository's .git
	LinkedTarget       = "linked_target"   // a projected file or folder in a project that is a link
	DanglingLink       = "dangling_link"   // a write through a link whose folder does not exist

	// A skill folder or the whole content library holds more files or
	// bytes than charter reads of one (checked before anything is read).
	LibraryTooLarge = "library_too_large"

	// A file charter has to read is broken; it is never rewritten.
	MalformedSettings      = "malformed_settings"
	MalformedMarkers       = "malformed_markers"
	LinkLoop               = "link_loop"
	MalformedPolicy        = "malformed_policy"
	MalformedMCPJSON       = "malformed_mcp_json"
	MalformedAgentSettings = "malformed_agent_settings" // an agent's settings.json
	MalformedReport        = "malformed_report"         // a coverage report
	MalformedContent       = "malformed_content"        // a rule, skill, command or subagent source

	// The machine or the other side.
	NoHome        = "no_home"        // the home directory is unknown
	NoServer      = "no_server"      // no live server for this scope
	ServerRunning = "server_running" // a live server already serves this scope
	ScopeExists   = "scope_exists"   // profiles move: the target profile has settings already
	NotSupported  = "not_supported"  // a required capability is missing
	NoBrowser     = "no_browser"     // serve --open: no browser could be opened

	// A check ran and found a problem.
	Outdated    = "outdated"     // apply --check: agent files out of date
	CheckFailed = "check_failed" // a gate or another check failed
)

// All lists every code, Internal included.
func All() []string {
	return []string{
		Internal,
		Usage, InvalidRequest, InvalidJSON, InvalidValue, UnknownKey,
		UnknownID, UnknownAgent, NoAgent, ScalarParent, LockedByPolicy,
		NotFound, MethodNotAllowed, PayloadTooLarge, PreconditionRequired,
		Unauthorized, ForbiddenOrigin, MisdirectedRequest,
		SharedWrite, Cancelled, StaleETag, ReadOnlyFile, NotWritable, GateRunning, Untrusted, ProjectionConflict,
		IsDirectory, NotDirectory, NotRegularFile, ChangedDuringWrite, NotAbsolute,
		OutsideProject, TooLarge, ForeignOwner, GitDir, LinkedTarget, DanglingLink,
		LibraryTooLarge,
		MalformedSettings, MalformedMarkers, LinkLoop, MalformedPolicy, MalformedMCPJSON,
		MalformedAgentSettings, MalformedReport, MalformedContent, ItemExists,
		NoHome, NoServer, ServerRunning, ScopeExists, NotSupported, NoBrowser,
		Outdated, CheckFailed,
	}
}
