package settings

// The policy's permissions and MCP sections (SPEC §14):
//
//	permissions:
//	  deny: ["shell:git push --force", "read:.env"]
//	  ask: ["shell:git push"]
//	mcp:
//	  allowed: [github, "https://mcp.example.com/"]
//	  required: [github]
//	  servers: {github: {url: "https://mcp.example.com/github"}}
//
// Unlike lock, these add to the layers below: any layer may deny more,
// none may remove, ask for or allow what the policy denies.

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/agentkit/charter/core"
)

const (
	sectionPermissions = "permissions"
	sectionMCP         = "mcp"
)

// policyGov is what the two sections say.
type policyGov struct {
	perms             map[string][]string // verdict → rules
	allowed, required []string
	servers           []Server
}

func (pp *policyParser) permissions(vn *yaml.Node) {
	if vn.Kind != yaml.MappingNode {
		pp.add(vn.Line, sectionPermissions, "permissions must be a mapping with deny, ask and allow lists")
		return
	}
	for i := 0; i+1 < len(vn.Content); i += 2 {
		kn, ln := vn.Content[i], vn.Content[i+1]
		if kn.Value != "deny" && kn.Value != "ask" && kn.Value != "allow" {
			pp.add(kn.Line, sectionPermissions, "permissions: unknown list %q: use deny, ask or allow", kn.Value)
			continue
		}
		items := pp.list(ln, "permissions."+kn.Value, ruleProblem)
		if pp.pol.gov.perms == nil {
			pp.pol.gov.perms = map[string][]string{}
		}
		pp.pol.gov.perms[kn.Value] = append(pp.pol.gov.perms[kn.Value], items...)
	}
}

func (pp *policyParser) mcp(vn *yaml.Node) {
	if vn.Kind != yaml.MappingNode {
		pp.add(vn.Line, sectionMCP, "mcp must be a mapping with allowed, required and servers")
		return
	}
	for i := 0; i+1 < len(vn.Content); i += 2 {
		kn, v := vn.Content[i], vn.Content[i+1]
		switch kn.Value {
		case "allowed":
			pp.pol.gov.allowed = pp.list(v, "mcp.allowed", func(s string) string {
				if strings.HasPrefix(s, "https://") || strings.HasPrefix(s, "http://") {
					return ""
				}
				return serverNameProblem(s)
			})
		case "required":
			pp.pol.gov.required = pp.list(v, "mcp.required", serverNameProblem)
		case "servers":
			ss, probs := parseServers(v)
			for _, p := range probs {
				pp.add(p.Line, p.Key, "%s", p.Message)
			}
			for i := range ss {
				ss[i].Origin, ss[i].Layer = pp.path, LayerPolicy
			}
			pp.pol.gov.servers = ss
		default:
			pp.add(kn.Line, sectionMCP, "mcp: unknown key %q: use allowed, required or servers", kn.Value)
		}
	}
}

// list reads a list of text items, each checked by check.
func (pp *policyParser) list(n *yaml.Node, key string, check func(string) string) []string {
	if n.Kind != yaml.SequenceNode {
		pp.add(n.Line, key, "%s must be a list, as [a, b] or one `- item` a line", key)
		return nil
	}
	var out []string
	for _, c := range n.Content {
		if c.Kind != yaml.ScalarNode || typeOf(c) != yStr {
			pp.add(c.Line, key, "%s: item %q is not text: write it in quotes", key, c.Value)
			continue
		}
		if msg := check(c.Value); msg != "" {
			pp.add(c.Line, key, "%s: %s", key, msg)
			continue
		}
		out = append(out, c.Value)
	}
	return out
}

// PolicyRules are the policy's rules of a verdict (deny, ask, allow).
func (p *Policy) PolicyRules(verdict string) []string {
	if p == nil {
		return nil
	}
	return p.gov.perms[verdict]
}

// MCPAllowed and MCPRequired are the policy's lists; allowed nil: any
// server may be projected.
func (p *Policy) MCPAllowed() []string {
	if p == nil {
		return nil
	}
	return p.gov.allowed
}

func (p *Policy) MCPRequired() []string {
	if p == nil {
		return nil
	}
	return p.gov.required
}

// checkGov refuses a lower layer's value that would loosen the policy: an
// ask or allow rule that meets a policy deny, an allow that meets a policy
// ask, disabling a required server.
func (p *Policy) checkGov(key string, v any) error {
	items, _ := v.([]string)
	if p == nil || len(items) == 0 {
		return nil
	}
	var against []string
	switch key {
	case KeyPermissionsAsk:
		against = []string{"deny"}
	case KeyPermissionsAllow:
		against = []string{"deny", "ask"}
	case KeyMCPDisabled:
		for _, it := range items {
			for _, r := range p.gov.required {
				if it == r {
					return &GovLockError{Key: key, Item: it, Policy: p.Path, What: "the policy requires server " + r}
				}
			}
		}
		return nil
	default:
		return nil
	}
	for _, it := range items {
		r, err := ParseRule(it)
		if err != nil {
			continue // the schema's check names it
		}
		for _, verdict := range against {
			for _, ps := range p.gov.perms[verdict] {
				if pr, err := ParseRule(ps); err == nil && pr.Overlaps(r) {
					return &GovLockError{Key: key, Item: it, Policy: p.Path, What: fmt.Sprintf("the policy says %s %s", verdict, ps)}
				}
			}
		}
	}
	return nil
}

// GovLockError is a write that would loosen the policy's permissions or
// servers; nothing was written.
type GovLockError struct {
	Key, Item, Policy, What string
}

func (e *GovLockError) Code() string { return core.CodeLockedByPolicy }

func (e *GovLockError) Extras() map[string]any {
	return map[string]any{"key": e.Key, "item": e.Item, "policy": e.Policy}
}

func (e *GovLockError) Error() string {
	return fmt.Sprintf("%s: %q would loosen %s: %s: nothing was written (remove %q; ask whoever manages that file to change it)",
		e.Key, e.Item, e.Policy, e.What, e.Item)
}
