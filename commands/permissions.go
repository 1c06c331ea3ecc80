package commands

import (
	"context"
	"fmt"
	"io"

	"github.com/agentkit/charter/core/inert"
	"github.com/agentkit/charter/core/session"
)

// PermissionsCmd groups the permission commands (SPEC §14).
type PermissionsCmd struct {
	List  PermissionsListCmd  `cmd:"" help:"List the permission rules in force here: deny, ask, allow, each with its layer and file, and whether the policy locks it."`
	Check PermissionsCheckCmd `cmd:"" help:"Say whether an action passes (allow, ask, deny or none), with the rule and layer that decide; --agent: whether that agent can express the rule."`
}

// PermissionsListCmd lists the rules in force.
type PermissionsListCmd struct{}

func (c *PermissionsListCmd) Run(ctx context.Context, a *App) error {
	p, err := a.session().Permissions(ctx)
	if err != nil {
		return err
	}
	return a.emit(p, func(w io.Writer) {
		if len(p.Rules) == 0 {
			fmt.Fprintln(w, "No permission rules: each agent keeps its own defaults.")
		}
		rw, lw := 4, 5
		for _, e := range p.Rules {
			rw, lw = max(rw, len(inert.Line(e.Rule))), max(lw, len(e.Layer))
		}
		for _, e := range p.Rules {
			lock := ""
			if e.Locked {
				lock = "  locked by policy"
			}
			// Rules and paths come from the project's files.
			fmt.Fprintf(w, "%-5s  %-*s  %-*s  %s%s\n", e.Verdict, rw, inert.Line(e.Rule), lw, e.Layer, inert.Line(e.Origin), lock)
		}
		for _, e := range p.Refused {
			fmt.Fprintf(a.Stderr, "charter: warning: %s %s in %s would loosen the policy: it is not in force; remove it\n", e.Verdict, inert.Line(e.Rule), inert.Line(e.Origin))
		}
	})
}

// PermissionsCheckCmd decides one action.
type PermissionsCheckCmd struct {
	Action string `arg:"" help:"The action in the rules' grammar: shell:COMMAND LINE, read:PATH, write:PATH, web:DOMAIN or mcp:SERVER/TOOL, e.g. 'shell:git push --force'."`
	Agent  string `name:"agent" placeholder:"AGENT" help:"Also say whether this agent (charter agents lists them) can express the deciding rule, at user and project level." complete:"agent"`
}

func (c *PermissionsCheckCmd) Run(ctx context.Context, a *App) error {
	res, err := a.session().CheckPermission(ctx, c.Action, c.Agent)
	if err != nil {
		return err
	}
	return a.emit(res, func(w io.Writer) { printCheck(w, res) })
}

func printCheck(w io.Writer, res *session.PermCheck) {
	if res.Rule == nil {
		fmt.Fprintf(w, "none: no rule matches %s; the agent's own default applies\n", inert.Line(res.Action))
	} else {
		lock := ""
		if res.Rule.Locked {
			lock = "; locked by policy"
		}
		fmt.Fprintf(w, "%s: %s decides (%s layer, %s%s)\n", res.Verdict, inert.Line(res.Rule.Rule), res.Rule.Layer, inert.Line(res.Rule.Origin), lock)
	}
	if res.Agent == nil {
		return
	}
	if len(res.Agent.Levels) == 0 {
		fmt.Fprintf(w, "%s: no rule to express\n", res.Agent.Agent)
	}
	for _, x := range res.Agent.Levels {
		if x.Expressed {
			fmt.Fprintf(w, "%s %s: expressed in %s as %s\n", res.Agent.Agent, x.Level, x.File, inert.Line(x.Native))
		} else {
			fmt.Fprintf(w, "%s %s: unsupported (%s)\n", res.Agent.Agent, x.Level, x.Reason)
		}
	}
}
