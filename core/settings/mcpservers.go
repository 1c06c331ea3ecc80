package settings

// mcp.servers.NAME in a settings file or the policy (SPEC §14): a server
// charter projects into each agent's MCP file. Values from the environment
// are written ${VAR} and projected as such, never resolved.

import (
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/agentkit/charter/core/lazy"
)

// KeyMCPServers is the mapping of servers by name.
const KeyMCPServers = "mcp.servers"

// Server is one MCP server: Command (+Args, Env) or URL (+Headers).
type Server struct {
	Name    string            `json:"name"`
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	URL     string            `json:"url,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	Origin  string            `json:"origin"` // the file that declares it
	Layer   string            `json:"layer"`  // global, scope, project, projectLocal or policy
}

// serversNode finds the mcp.servers mapping of a settings document, nested
// or written as a dotted key; nil when there is none.
func serversNode(doc *yaml.Node) *yaml.Node {
	if doc == nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil
	}
	top := doc.Content[0]
	for i := 0; i+1 < len(top.Content); i += 2 {
		k, v := top.Content[i], top.Content[i+1]
		switch {
		case k.Value == KeyMCPServers:
			return v
		case k.Value == "mcp" && v.Kind == yaml.MappingNode:
			for j := 0; j+1 < len(v.Content); j += 2 {
				if v.Content[j].Value == "servers" {
					return v.Content[j+1]
				}
			}
		}
	}
	return nil
}

// isServerKey: the dotted key lies in mcp.servers, read by parseServers
// rather than the schema.
func isServerKey(key string) bool {
	return key == KeyMCPServers || strings.HasPrefix(key, KeyMCPServers+".")
}

// parseServers reads the mapping; each problem names its line and the fix.
func parseServers(n *yaml.Node) ([]Server, []FileProblem) {
	var out []Server
	var probs []FileProblem
	add := func(line int, key, format string, args ...any) {
		probs = append(probs, FileProblem{Line: line, Key: key, Message: key + ": " + fmt.Sprintf(format, args...)})
	}
	if n == nil || isPlaceholder(n) {
		return nil, nil
	}
	if n.Kind != yaml.MappingNode {
		add(n.Line, KeyMCPServers, "want a mapping of server names to servers, each with command (and args, env) or url (and headers)")
		return nil, probs
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		kn, vn := n.Content[i], n.Content[i+1]
		key := KeyMCPServers + "." + kn.Value
		if !validServerName(kn.Value) {
			add(kn.Line, key, "%q is not a server name: use letters, digits, - and _", kn.Value)
			continue
		}
		if vn.Kind != yaml.MappingNode {
			add(vn.Line, key, "want command (and args, env) or url (and headers)")
			continue
		}
		s := Server{Name: kn.Value}
		bad := false
		for j := 0; j+1 < len(vn.Content); j += 2 {
			fk, fv := vn.Content[j], vn.Content[j+1]
			fkey := key + "." + fk.Value
			var err string
			switch fk.Value {
			case "command":
				s.Command, err = scalarText(fv)
			case "url":
				s.URL, err = scalarText(fv)
			case "args":
				s.Args, err = textList(fv)
			case "env":
				s.Env, err = textMap(fv, "variable")
			case "headers":
				s.Headers, err = textMap(fv, "header")
			default:
				err = "unknown field: a server has command, args, env or url, headers"
			}
			if err != "" {
				add(fk.Line, fkey, "%s", err)
				bad = true
			}
		}
		if bad {
			continue
		}
		if msg := s.problem(); msg != "" {
			add(kn.Line, key, "%s", msg)
			continue
		}
		out = append(out, s)
	}
	return out, probs
}

// problem checks a server as a whole; "" when it is fine.
func (s Server) problem() string {
	switch {
	case s.Command == "" && s.URL == "":
		return "give command (a program to start) or url (a server to reach)"
	case s.Command != "" && s.URL != "":
		return "give command or url, not both"
	case s.URL != "" && (len(s.Args) > 0 || len(s.Env) > 0):
		return "args and env go with command; a url server takes headers"
	case s.Command != "" && len(s.Headers) > 0:
		return "headers go with url; a command server takes env"
	case s.URL != "" && !strings.HasPrefix(s.URL, "https://") && !strings.HasPrefix(s.URL, "http://"):
		return fmt.Sprintf("url %q: write an http:// or https:// address", s.URL)
	}
	for _, m := range []map[string]string{s.Env, s.Headers} {
		for _, k := range sortedStrings(m) {
			if secretLooking(k, m[k]) {
				return fmt.Sprintf("%s is a literal secret: write ${VAR} and keep the value in your environment (charter never copies it)", k)
			}
		}
	}
	return ""
}

var (
	envRef = lazy.Regexp{Expr: `\$\{[A-Za-z_][A-Za-z0-9_]*\}`}
	// secretName: the variable or header usually carries a credential.
	secretName = lazy.Regexp{Expr: `(?i)(token|secret|key|passw|auth|credential|cookie|session)`}
	// secretShape: well-known token prefixes, or a long run of letters and
	// digits with no space.
	secretShape = lazy.Regexp{Expr: `^(gh[pousr]_|github_pat_|sk-|xox[abpr]-|AKIA|glpat-|AIza)|^[A-Za-z0-9_\-+/=.]{32,}$`}
)

// secretLooking: a value that is, or looks like, a credential written out
// rather than taken from the environment.
func secretLooking(name, v string) bool {
	rest := strings.TrimSpace(envRef.Get().ReplaceAllString(v, ""))
	rest = strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(rest, "Bearer"), "Basic"))
	if rest == "" {
		return false
	}
	return secretName.Get().MatchString(name) || secretShape.Get().MatchString(rest)
}

func scalarText(n *yaml.Node) (string, string) {
	if n.Kind != yaml.ScalarNode || typeOf(n) != yStr || strings.TrimSpace(n.Value) == "" {
		return "", "want text (in quotes if it could read as a number or true/false)"
	}
	return strings.TrimSpace(n.Value), ""
}

func textList(n *yaml.Node) ([]string, string) {
	if n.Kind != yaml.SequenceNode {
		return nil, "want a list of arguments, as [a, b] or one `- item` a line"
	}
	out := make([]string, 0, len(n.Content))
	for _, c := range n.Content {
		if c.Kind != yaml.ScalarNode || typeOf(c) != yStr {
			return nil, fmt.Sprintf("argument %q is not text: write it in quotes", c.Value)
		}
		out = append(out, c.Value)
	}
	return out, ""
}

func textMap(n *yaml.Node, what string) (map[string]string, string) {
	if n.Kind != yaml.MappingNode {
		return nil, fmt.Sprintf("want a mapping of %s names to values", what)
	}
	out := map[string]string{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if v.Kind != yaml.ScalarNode || typeOf(v) != yStr {
			return nil, fmt.Sprintf("%s %s: want text in quotes, such as \"${%s}\"", what, k.Value, strings.ToUpper(k.Value))
		}
		out[k.Value] = v.Value
	}
	return out, ""
}

func sortedStrings(m map[string]string) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// Problem is what makes s no valid server, "" when it is one (import
// checks a server it read from an agent's file before writing it).
func (s Server) Problem() string { return s.problem() }

// LiteralSecret reports whether value, in the variable or header name,
// is a credential written out rather than a ${VAR} reference.
func LiteralSecret(name, value string) bool { return secretLooking(name, value) }

// ValidServerName reports whether s can name a server.
func ValidServerName(s string) bool { return validServerName(s) }
