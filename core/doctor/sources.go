package doctor

import (
	"fmt"
	"strings"

	"github.com/agentkit/charter/core/gates"
	"github.com/agentkit/charter/core/settings"
)

// sharedSources: each declared source (SPEC §15) is pinned in its layer's
// lock (else apply fails), its pinned tree is in the cache (else the next
// apply fetches it, which needs the remote), and a project's sources are
// read only once the project is trusted. Doctor never fetches.
func sharedSources(r *run) []Check {
	const name, label = "sources", "Shared sources"
	if r.scopeErr != nil {
		return r.needScope(name, label)
	}
	if r.policyErr != nil {
		return nil // the policy's line says why nothing reads
	}
	if _, err := r.store.Read(); err != nil {
		return nil // the settings check reports it
	}
	es, err := r.Session.Sources(r.ctx, &r.scope)
	if err != nil {
		return []Check{fail(name, label, r.Sys.ErrorMessage(err), "fix the file named above; `charter sources list` shows the sources once they read")}
	}
	if len(es) == 0 {
		return []Check{ok(name, label, "no shared source is declared")}
	}
	var out, fine []string
	var checks []Check
	untrusted := ""
	for _, e := range es {
		switch {
		case e.Commit == "" && e.Layer == settings.LayerPolicy:
			checks = append(checks, fail(name, label,
				fmt.Sprintf("source %s is declared by the policy file %s but has no matching entry in %s: every apply and list fails until it is pinned", e.Name, e.Settings, e.Lock),
				fmt.Sprintf("whoever manages the policy runs `charter sources update --policy %s`", e.Name)))
		case e.Commit == "":
			checks = append(checks, fail(name, label,
				fmt.Sprintf("source %s is declared in %s but has no matching entry in %s: every apply and list fails until it is pinned", e.Name, e.Settings, e.Lock),
				fmt.Sprintf("run `charter sources update %s` (it fetches the ref and pins it)", e.Name)))
		case !e.Cached:
			checks = append(checks, warn(name, label,
				fmt.Sprintf("the cache lacks the pinned tree of source %s (%s at %s): the next apply fetches it, which needs the remote", e.Name, e.URL, e.Commit[:12]),
				"run `charter apply` or `charter rules list` once while the remote is reachable"))
		default:
			s := e.Name
			if e.Update {
				s += " (update available: " + e.Latest[:12] + ")"
			}
			fine = append(fine, s)
		}
		if e.Layer == settings.LayerProject && e.Commit != "" {
			out = append(out, e.Name)
		}
	}
	if len(out) > 0 {
		untrusted = projectSourcesTrust(r)
	}
	if untrusted != "" {
		checks = append(checks, warn(name, label,
			fmt.Sprintf("the project takes shared sources %s, and charter reads none of them until you trust the project: lists leave their items out and apply --project refuses", strings.Join(out, ", ")),
			fmt.Sprintf("review them in .charter/sources.lock, then run `%s`", untrusted)))
	}
	if len(fine) > 0 {
		checks = append([]Check{ok(name, label, "pinned and cached: "+strings.Join(fine, ", "))}, checks...)
	}
	return checks
}

// projectSourcesTrust is the command that trusts the project when it is
// not trusted, else "".
func projectSourcesTrust(r *run) string {
	if r.project == nil {
		return ""
	}
	snap, err := r.store.Read()
	if err != nil {
		return "" // the settings check reports it
	}
	t, err := gates.TrustOf(r.Sys, snap)
	if err != nil || t.Trusted() {
		return ""
	}
	return t.Command
}
