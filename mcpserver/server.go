// Package mcpserver is charter's Model Context Protocol skin: a read-only
// server that lets an agent ask, at any moment and for the directory it
// works in, what its settings are, where each comes from, and whether the
// gates pass. It is a skin like the CLI and the HTTP API: it parses, calls a
// Backend, and renders.
package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/content"
	"github.com/agentkit/charter/core/errcode"
	"github.com/agentkit/charter/core/fsys"
	"github.com/agentkit/charter/core/gates"
	"github.com/agentkit/charter/core/session"
	"github.com/agentkit/charter/helpers/jsondoc"
)

// Resource URIs.
const (
	URISettings   = "charter://settings"
	URIGovernance = "charter://governance"
	URISchema     = "charter://schema"
)

// Instructions tell the client what the server is for, and that it only reads.
const Instructions = `charter holds the governance of this account and project: rules, skills, commands, quality gates, cost and autonomy settings.
This server is read-only by design: no tool or resource changes a setting, a dismissal or any file, so an agent cannot loosen its own governance. To change a setting, ask the user to run ` + "`charter settings set KEY VALUE`" + `.
Read charter://governance for the instructions in force, charter://settings for every effective value and where it comes from, charter://schema for what each setting means.
Tools: settings_get and settings_explain (one key), status (profile, scope, project, policy, trust, whether the agent files are current), ping, trust (what the project asks to run and whether the user trusts it), gates_run (run the quality gates; do this before you declare work done), permissions_list and permissions_check (what you may do), mcp_servers_list.`

// Options configure a Server.
type Options struct {
	Version string
	// Getwd gives the directory to work in when the client announces no roots.
	Getwd func() (string, error)
	// Paths turns a file:// root into a path of this system.
	Paths fsys.PathStyle
	// Message says an error in words for people, as the CLI does
	// (core.System.ErrorMessage), so that both skins say the same. Required.
	Message func(error) string
}

// Server is charter's MCP server.
type Server struct {
	srv  *mcp.Server
	b    Backend
	opts Options

	mu    sync.Mutex
	roots map[*mcp.ServerSession]*clientDir // the directory of each session whose client announced roots
	// lastCaps is the last call's client capabilities, by their JSON (capsOf).
	lastCaps struct {
		key string
		v   *mcp.ClientCapabilities
	}

	pagesMu sync.Mutex
	pages   map[content.Kind]keptPage // each list tool's last page (list)
}

// New builds the server over b. A *Local's System is made read-only
// (core.System.ReadOnly) here, so no tool can write whatever it calls.
func New(b Backend, opts Options) *Server {
	if opts.Message == nil {
		panic("mcpserver.New: Options.Message is nil") // errors would be said in the OS's words
	}
	if l, ok := b.(*Local); ok && l.Sys != nil {
		// Read-only by type: every write through the System fails.
		l.Sys = l.Sys.ReadOnly("the MCP server")
	}
	s := &Server{b: b, opts: opts, roots: map[*mcp.ServerSession]*clientDir{}}
	s.srv = mcp.NewServer(&mcp.Implementation{Name: core.Name, Title: "charter", Version: opts.Version}, &mcp.ServerOptions{
		Instructions:            Instructions,
		RootsListChangedHandler: s.rootsChanged,
		// Tools and resources are fixed for the life of the server, so no
		// list-changed notifications; no logging: nothing here is worth a client's log.
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}, Resources: &mcp.ResourceCapabilities{}},
	})
	s.srv.AddReceivingMiddleware(codeArgumentErrors)
	s.srv.AddReceivingMiddleware(encodeResults) // outermost: sees the final result
	s.addResources()
	s.addTools()
	return s
}

// MCP is the SDK server, for connecting it to a transport.
func (s *Server) MCP() *mcp.Server { return s.srv }

// Run serves one client over t until it disconnects or ctx ends. A client
// that closes its end is a normal end: Run returns nil.
func (s *Server) Run(ctx context.Context, t mcp.Transport) error {
	if _, ok := t.(*StdioTransport); ok {
		ctx = context.WithValue(ctx, heldKey{}, &heldResults{wire: map[string][]byte{}})
	}
	return s.srv.Run(ctx, t)
}

func (s *Server) addResources() {
	s.resource(&mcp.Resource{
		URI: URISettings, Name: "settings", Title: "Effective settings", MIMEType: "application/json",
		Description: "Every setting's effective value and the file it comes from (or default): the document of `charter settings list --json`.",
	}, func(ctx context.Context, dir string) (string, error) {
		doc, err := s.b.Settings(ctx, dir)
		if err != nil {
			return "", err
		}
		return encode(doc)
	})
	s.resource(&mcp.Resource{
		URI: URIGovernance, Name: "governance", Title: "Governance in force", MIMEType: "text/markdown",
		Description: "The instructions the settings make: the block `charter apply` writes into CLAUDE.md and AGENTS.md for this scope and project.",
	}, func(ctx context.Context, dir string) (string, error) {
		return s.b.Governance(ctx, dir)
	})
	s.resource(&mcp.Resource{
		URI: URISchema, Name: "schema", Title: "Settings schema", MIMEType: "application/schema+json",
		Description: "JSON Schema of the settings: every key with its type, default, bounds and meaning.",
	}, nil)
}

// resource adds r, read by read in the client's directory. A nil read
// serves the schema, which depends on no directory.
func (s *Server) resource(r *mcp.Resource, read func(ctx context.Context, dir string) (string, error)) {
	s.srv.AddResource(r, func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		var text string
		if read == nil {
			data, err := s.b.Schema(ctx)
			if err != nil {
				return nil, s.rpcError(err)
			}
			text = string(data)
		} else {
			dir, ask, err := s.workDir(ctx, req.Session, s.capsOf(req.Params.GetMeta(), req.ClientCapabilities), req.Params.InputResponses)
			if err != nil {
				return nil, s.rpcError(err)
			}
			if ask != nil {
				return &mcp.ReadResourceResult{InputRequests: ask}, nil
			}
			if text, err = read(ctx, dir); err != nil {
				return nil, s.rpcError(err)
			}
		}
		return &mcp.ReadResourceResult{
			// The user's own settings, read live: cache nowhere else, and not for long.
			Cacheable: mcp.Cacheable{TTLMs: 0, CacheScope: "private"},
			Contents:  []*mcp.ResourceContents{{URI: r.URI, MIMEType: r.MIMEType, Text: text}},
		}, nil
	})
}

// KeyInput names one setting.
type KeyInput struct {
	Key string `json:"key" jsonschema:"the dotted settings key, e.g. rules.tier or gates.coverage.min"`
}

// GatesInput chooses the gates to run.
type GatesInput struct {
	Gates []string `json:"gates,omitempty" jsonschema:"the gates to run, e.g. tests or lint; leave out to run every required gate"`
}

// StatusInput takes nothing.
type StatusInput struct{}

func (s *Server) addTools() {
	no := false
	readOnly := &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &no}
	addTool(s, &mcp.Tool{
		Name: "settings_get", Title: "Get a setting", Annotations: readOnly,
		Description: "The effective value of one setting and where it comes from (a file path, or default).",
	}, func(ctx context.Context, req *mcp.CallToolRequest, dir string, in KeyInput) (session.KeyDoc, error) {
		return s.b.Get(ctx, dir, in.Key)
	})
	addTool(s, &mcp.Tool{
		Name: "settings_explain", Title: "Explain a setting", Annotations: readOnly,
		Description: "What one setting means: description, type, allowed values, bounds, default, effective value, the layer that set it, and whether a policy locks it.",
	}, func(ctx context.Context, req *mcp.CallToolRequest, dir string, in KeyInput) (Explanation, error) {
		return s.b.Explain(ctx, dir, in.Key)
	})
	addTool(s, &mcp.Tool{
		Name: "status", Title: "charter status", Annotations: readOnly,
		Description: "Where charter stands: companion profile, config root, scope, project, policy, and whether each agent's instruction file holds the current settings.",
	}, func(ctx context.Context, req *mcp.CallToolRequest, dir string, in StatusInput) (session.StatusDoc, error) {
		doc, err := s.b.Status(ctx, dir)
		doc.WorkDirNote = s.rootsNote(req.Session)
		return doc, err
	})
	addTool(s, &mcp.Tool{
		Name: "ping", Title: "charter ping", Annotations: readOnly,
		Description: "The document of `charter ping --json`: this charter's version and capabilities, companion profile, config root, scope, project, policy, the project's trust state, and profiles of different providers the environment names.",
	}, func(ctx context.Context, req *mcp.CallToolRequest, dir string, in StatusInput) (core.PingDoc, error) {
		return s.b.Ping(ctx, dir)
	})
	addTool(s, &mcp.Tool{
		Name: "trust", Title: "The project's trust", Annotations: readOnly,
		Description: "The document of `charter trust --show --json`: the project's values that run only once the user trusts them (gate commands, servers, pinned sources), their hash, and whether the user trusts exactly those. Only the user can trust a project: ask them to run the command in \"command\".",
	}, func(ctx context.Context, req *mcp.CallToolRequest, dir string, in StatusInput) (session.TrustDoc, error) {
		return s.b.Trust(ctx, dir)
	})
	addTool(s, &mcp.Tool{
		Name: "gates_run", Title: "Run the quality gates",
		// The gates run the project's own commands (tests, linter); charter writes nothing.
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: false, DestructiveHint: &no, IdempotentHint: true, OpenWorldHint: &no},
		Description: "Run the required quality gates (tests, lint, coverage) as `charter gate run --json` does, in the project root. Sends progress notifications when asked; cancelling the call stops every gate process.",
	}, s.gatesRun)
	s.addContentTools(readOnly)
	s.addSourcesTool(readOnly)
	s.addGovernanceTools(readOnly)
}

func (s *Server) gatesRun(ctx context.Context, req *mcp.CallToolRequest, dir string, in GatesInput) (gates.Report, error) {
	token := req.Params.GetProgressToken()
	var (
		mu   sync.Mutex
		last = -1
	)
	progress := func(done, total int, msg string) {
		mu.Lock()
		defer mu.Unlock()
		// MCP progress must grow with each notification; a report that
		// does not is dropped rather than sent out of order.
		if token == nil || done <= last {
			return
		}
		last = done
		// A failed notification must not fail the run: the client may be gone.
		_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
			ProgressToken: token, Progress: float64(done), Total: float64(total), Message: msg,
		})
	}
	return s.b.RunGates(ctx, dir, in.Gates, progress)
}

// addTool registers a typed tool whose handler gets the client's directory
// and whose errors become tool errors with the CLI's code and message.
// Arguments are checked against the input schema as the SDK does; the
// output is not checked against its schema on each call (a list of 1,000
// rules took longer to check than to make): the tests check it instead.
func addTool[In, Out any](s *Server, t *mcp.Tool, h func(ctx context.Context, req *mcp.CallToolRequest, dir string, in In) (Out, error)) {
	in := inputSchemaFor[In]()
	resolved, err := in.Resolve(nil)
	if err != nil {
		panic(fmt.Sprintf("input schema of %s: %v", t.Name, err)) // the types are this package's own
	}
	// Encoded once: the SDK would encode each schema again, by reflection,
	// on every tools/list (most of that call's time).
	t.InputSchema, t.OutputSchema = rawSchema(t.Name, in), rawSchema(t.Name, schemaFor[Out]())
	s.srv.AddTool(t, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		in, err := decodeArgs[In](req.Params.Arguments, resolved)
		if err != nil {
			var res mcp.CallToolResult
			res.SetError(err)
			return &res, nil
		}
		fail := func(err error) (*mcp.CallToolResult, error) {
			var res mcp.CallToolResult
			res.SetError(&toolError{errcode.NewBody(err, s.opts.Message(err))})
			return &res, nil
		}
		dir, ask, err := s.workDir(ctx, req.Session, s.capsOf(req.Params.GetMeta(), req.ClientCapabilities), req.Params.InputResponses)
		if err != nil {
			return fail(err)
		}
		if ask != nil {
			return &mcp.CallToolResult{InputRequests: ask}, nil
		}
		out, err := h(ctx, req, dir, in)
		if err != nil {
			return fail(err)
		}
		data, err := encodeOutput(out)
		if err != nil {
			return nil, fmt.Errorf("marshaling output: %w", err)
		}
		return &mcp.CallToolResult{StructuredContent: json.RawMessage(data), Content: []mcp.Content{&mcp.TextContent{Text: string(data)}}}, nil
	})
}

// rawSchema is s as JSON, for a tool's schema.
func rawSchema(tool string, s *jsonschema.Schema) json.RawMessage {
	data, err := json.Marshal(s)
	if err != nil {
		panic(fmt.Sprintf("schema of %s: %v", tool, err)) // the types are this package's own
	}
	return data
}

// decodeArgs checks a call's arguments against the input schema, fills
// in its defaults and decodes them, with the SDK's words for a mismatch.
func decodeArgs[In any](args json.RawMessage, resolved *jsonschema.Resolved) (In, error) {
	var in In
	v := map[string]any{}
	if len(args) > 0 {
		if err := json.Unmarshal(args, &v); err != nil {
			return in, fmt.Errorf("validating \"arguments\": unmarshaling arguments: %w", err)
		}
	}
	var val any = v
	if err := resolved.ApplyDefaults(&val); err != nil {
		return in, fmt.Errorf("validating \"arguments\": applying schema defaults:\n%w", err)
	}
	if err := resolved.Validate(&val); err != nil {
		return in, fmt.Errorf("validating \"arguments\": %w", err)
	}
	data, err := json.Marshal(val)
	if err != nil {
		return in, fmt.Errorf("validating \"arguments\": %w", err)
	}
	err = json.Unmarshal(data, &in)
	return in, err
}

// toolError is a failed tool call. The SDK sends Error() as the result's
// text, so it is the CLI's JSON error document: {"error":{"code","message"}}.
type toolError struct{ body core.ErrorBody }

func (e *toolError) Error() string { return errorDocument(e.body) }
func (e *toolError) Code() string  { return e.body.Code }

// ToolErrorSample is a tool error for the test that holds every error type
// to the code vocabulary.
func ToolErrorSample() error { return &toolError{core.ErrorBody{Code: core.CodeUsage, Message: "x"}} }

func errorDocument(b core.ErrorBody) string {
	doc, err := json.Marshal(b.Document())
	if err != nil {
		return err.Error()
	}
	return string(doc)
}

// codeArgumentErrors gives the SDK's own tool errors (arguments that do not
// match the input schema) the CLI's code for bad input.
func codeArgumentErrors(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		r, ok := res.(*mcp.CallToolResult)
		if err != nil || !ok || !r.IsError {
			return res, err
		}
		var te *toolError
		if cause := r.GetError(); cause != nil && !errors.As(cause, &te) {
			r.Content = []mcp.Content{&mcp.TextContent{Text: errorDocument(core.ErrorBody{Code: core.CodeUsage, Message: cause.Error()})}}
		}
		return r, nil
	}
}

// rpcError is a failed resource read: a JSON-RPC error whose data is the
// CLI's error body.
func (s *Server) rpcError(err error) error {
	body := errcode.NewBody(err, s.opts.Message(err))
	data, merr := json.Marshal(body)
	if merr != nil {
		data = nil
	}
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: body.Message, Data: data}
}

func encode(v any) (string, error) {
	data, err := jsondoc.Encode(v, "", "  ")
	return string(data), err
}
