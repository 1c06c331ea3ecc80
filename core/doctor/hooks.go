package doctor

import (
	"fmt"
	"strings"

	"github.com/agentkit/charter/core/apply"
)

// hookPrograms: whether the program of each charter Stop hook entry in the
// agents' hook files (user level and, inside a project, the project's)
// exists and is charter (SPEC §10). An agent treats a hook that cannot run
// (exit 127) as no block: the gates silently stop gating. The bare word is
// looked up on PATH, as the agent's shell would. Whether a file is charter
// is read from the Go build info it carries (never by running it): a Go
// binary of another module fails; a file that is no Go binary (a wrapper
// script, a version manager's shim) cannot be told, and is a warning.
func hookPrograms(r *run) []Check {
	if r.scopeErr != nil {
		return nil
	}
	var targets []apply.Target
	if full, _ := r.plan(); full != nil {
		targets = full.Targets
	}
	targets = append(targets[:len(targets):len(targets)], r.projectPlan()...)
	var out []Check
	for _, t := range targets {
		kind, ok := t.StopHook()
		if !ok || t.Old == nil {
			continue
		}
		for _, cmd := range apply.StopHookCommands(t.Old, kind) {
			n, l := "stop-hook:"+t.Agent, "Stop hook ("+t.Agent+")"
			if t.Level == apply.LevelProject {
				n, l = n+":project", "Project Stop hook ("+t.Agent+")"
			}
			out = append(out, hookProgram(r, n, l, t.Path, cmd))
		}
	}
	return out
}

func hookProgram(r *run, name, label, file, cmd string) Check {
	prog, plain := apply.CommandProgram(cmd)
	if !plain {
		return warn(name, label, fmt.Sprintf("%s: not checked: the hook's program in %q is expanded by the shell", file, cmd),
			"run `charter apply` to write the entry charter checks")
	}
	path := prog
	if !strings.ContainsAny(prog, `/\`) {
		if path = r.Sys.LookPath(prog); path == "" {
			return fail(name, label, fmt.Sprintf("%s: the hook runs %q, which is not on PATH: the agent's stop is not gated", file, prog), apply.InstallHint)
		}
	} else if fi, err := r.Sys.Fs.Stat(path); err != nil || !fi.Mode().IsRegular() {
		return fail(name, label, fmt.Sprintf("%s: the hook runs %s, which does not exist: the agent's stop is not gated", file, prog),
			"run `charter apply` (with --project for a project file) to write the current entry")
	}
	switch is, known := apply.IsCharter(r.Sys, path); {
	case !known:
		return warn(name, label, fmt.Sprintf("%s: the hook runs %s, which is not a Go binary: charter cannot tell whether it is charter", file, path),
			"make sure it runs charter, or run `charter apply` to write the current entry")
	case !is:
		return fail(name, label, fmt.Sprintf("%s: the hook runs %s, which is not charter: the agent's stop is not gated", file, path),
			apply.InstallHint+", or run `charter apply` to write the current entry")
	}
	return ok(name, label, fmt.Sprintf("%s: the hook runs %s", file, path))
}
