package doctor

import (
	"fmt"
	"github.com/agentkit/charter/core/trust"
	"strings"

	"github.com/agentkit/charter/core/gates"
)

// projectTrust: whether the project's own commands may run (SPEC §13),
// the projects passed over because another user owns them, and a trust
// file charter does not believe (then no project is trusted).
func projectTrust(r *run) []Check {
	const name, label = "trust", "Trust"
	var out []Check
	if bad := trust.FileProblem(r.Sys); bad != nil {
		out = append(out, fail("trust-file", "Trust file", bad.Path+" "+bad.Problem+": until it is fixed, no project is trusted", bad.Fix))
	}
	if ignored, err := r.Session.IgnoredProjects(); err == nil {
		for _, fp := range ignored {
			out = append(out, warn("foreign-project", "Foreign project",
				fmt.Sprintf("%s is not used as a project: %s is owned by uid %d, not by you (uid %d)", fp.Dir, fp.Path, fp.Owner, fp.Euid),
				fmt.Sprintf("if you trust its owner, run `charter trust --project-dir %s`; else remove it or ask its owner to", fp.Dir)))
		}
	}
	if r.scopeErr != nil || r.project == nil {
		return out
	}
	snap, err := r.store.Read()
	if err != nil {
		return out // a file that cannot be read has its own line
	}
	t, err := gates.TrustOf(r.Sys, snap)
	switch {
	case err != nil:
		return append(out, fail(name, label, err.Error(), "fix or remove the trust file, then trust your projects again with `charter trust`"))
	case t.State == gates.TrustNotNeeded:
		return append(out, ok(name, label, "the project sets no command charter runs: nothing needs trust"))
	case t.State == gates.TrustTrusted:
		return append(out, ok(name, label, "the project's commands are trusted: "+trustKeys(t)))
	}
	msg := "the project's values are not trusted, so its gates do not run and its gate settings do not apply: " + trustKeys(t)
	if t.Changed {
		msg = "the project's values changed since you trusted them, so its gates do not run and its gate settings do not apply: " + trustKeys(t)
	}
	return append(out, warn(name, label, msg, "check them in the project's .charter/ files, then run `"+t.Command+"`"))
}

func trustKeys(t gates.Trust) string {
	keys := make([]string, len(t.Values))
	for i, v := range t.Values {
		keys[i] = v.Key
	}
	return strings.Join(keys, ", ")
}
