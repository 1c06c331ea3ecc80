package session

// Permissions and MCP servers as `charter permissions` and `charter
// mcp-servers` show them (SPEC §14): read from the effective settings,
// every layer included, and judged the way apply projects them.

import (
	"context"
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/agents"
	"github.com/agentkit/charter/core/apply"
	"github.com/agentkit/charter/core/settings"
)

// Permissions is `charter permissions list`: the rules in force, deny
// then ask then allow, and the rules a lower layer wrote that would loosen
// the policy (never in force).
type Permissions struct {
	Rules   []settings.PermEntry `json:"rules"`
	Refused []settings.PermEntry `json:"refused"`
	Policy  string               `json:"policy,omitempty"`
}

// Permissions reads the permission rules in force here.
func (s *Session) Permissions(ctx context.Context) (*Permissions, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	_, snap, err := s.Read()
	if err != nil {
		return nil, err
	}
	g := snap.Gov
	return &Permissions{Rules: g.Permissions, Refused: g.Refused, Policy: g.Policy}, nil
}

// VerdictNone is a check's verdict when no rule decides.
const VerdictNone = "none"

// PermCheck is `charter permissions check`: what the rules say of one
// action, and the rule that decides.
type PermCheck struct {
	Action  string              `json:"action"`
	Verdict string              `json:"verdict"` // deny, ask, allow or none
	Rule    *settings.PermEntry `json:"rule"`    // nil: no rule decides, the agent's own default applies
	// Agent says whether the agent named can express the deciding rule.
	Agent *AgentExpress `json:"agent,omitempty"`
}

// AgentExpress is whether one agent can hold a rule, at each level.
type AgentExpress struct {
	Agent  string    `json:"agent"`
	Levels []Express `json:"levels"` // user, project; empty when no rule decides
}

// Express is one level's answer.
type Express struct {
	Level     string `json:"level"`
	Expressed bool   `json:"expressed"`
	File      string `json:"file,omitempty"`   // where apply writes it
	Native    string `json:"native,omitempty"` // the entry as the agent spells it
	Reason    string `json:"reason,omitempty"` // why not
}

// CheckPermission decides action (a rule naming a concrete command, path,
// domain or server/tool); agent "" asks about no agent.
func (s *Session) CheckPermission(ctx context.Context, action, agent string) (*PermCheck, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	act, err := settings.ParseRule(action)
	if err != nil {
		return nil, core.Errorf(core.CodeUsage, "permissions check: %v", err)
	}
	var ag agents.Agent
	if agent != "" {
		var ok bool
		if ag, ok = s.Sys.AgentTable.Lookup(strings.ToLower(strings.TrimSpace(agent))); !ok {
			return nil, core.Errorf(core.CodeUnknownAgent, "unknown agent %q: choose one that `charter agents` lists", agent)
		}
	}
	_, snap, err := s.Read()
	if err != nil {
		return nil, err
	}
	out := &PermCheck{Action: act.String(), Verdict: VerdictNone}
	if e := snap.Gov.Decide(act); e != nil {
		out.Verdict, out.Rule = e.Verdict, e
	}
	if agent == "" {
		return out, nil
	}
	out.Agent = &AgentExpress{Agent: ag.Name, Levels: []Express{}}
	if out.Rule == nil {
		return out, nil
	}
	r, err := settings.ParseRule(out.Rule.Rule)
	if err != nil {
		return nil, err // a rule in force has been parsed already
	}
	for _, level := range []string{apply.LevelUser, apply.LevelProject} {
		pl := ag.At(level)
		x := Express{Level: level}
		if pl.PermFormat == "" && pl.PermNone != "" {
			x.Reason = pl.PermNone
		} else if pl.PermFormat == "" {
			x.Reason = "charter has no place for " + ag.Display + "'s permissions at " + level + " level"
		} else if file, native, why, ok := apply.GeminiPolicyPlace(pl, out.Rule.Verdict, r); ok {
			x.Expressed, x.File, x.Native, x.Reason = why == "", file, native, why
		} else if file, native, ok := apply.CodexSandboxPlace(pl, out.Rule.Verdict, r); ok {
			x.Expressed, x.File, x.Native = true, file, native
		} else if keys, entry, ok := apply.NativeRule(pl.PermFormat, out.Rule.Verdict, r); ok {
			x.Expressed, x.File, x.Native = true, pl.Permissions, strings.Join(keys, ".")+": "+entry
			if pl.PermFormat == "opencode" { // an object of pattern → verdict
				x.Native = strings.Join(keys, ".") + `: "` + entry + `": ` + out.Rule.Verdict
			}
		} else {
			x.Reason = apply.UnsupportedWhy(ag, pl.PermFormat, r)
		}
		out.Agent.Levels = append(out.Agent.Levels, x)
	}
	return out, nil
}

// ServerRow is one server `charter mcp-servers list` shows.
type ServerRow struct {
	settings.Server
	Projected bool `json:"projected"`
	// Reason says why not: disabled, not_allowed or untrusted.
	Reason string `json:"reason,omitempty"`
}

// MCPServers lists the servers the layers and the policy declare, each
// with whether apply projects it.
func (s *Session) MCPServers(ctx context.Context) ([]ServerRow, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	_, snap, err := s.Read()
	if err != nil {
		return nil, err
	}
	states, err := apply.ServerStates(s.Sys, snap)
	if err != nil {
		return nil, err
	}
	out := make([]ServerRow, 0, len(snap.Gov.Servers))
	for i, sv := range snap.Gov.Servers {
		out = append(out, ServerRow{Server: sv, Projected: states[i] == "", Reason: states[i]})
	}
	return out, nil
}
