package doctor

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"syscall"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/apply"
	"github.com/agentkit/charter/core/companion"
	"github.com/agentkit/charter/core/dismiss"
	"github.com/agentkit/charter/core/fsys"
	"github.com/agentkit/charter/core/profile"
	"github.com/agentkit/charter/core/settings"
)

// companionCheck: is agent-switch there, and can its dismissal be read.
func companionCheck(r *run) []Check {
	const name, label = "companion", "agent-switch"
	d, err := companion.Detect(r.Sys)
	var out []Check
	switch {
	case d.Installed && d.Version != nil:
		out = append(out, ok(name, label, "installed, version "+*d.Version))
	case d.Installed:
		out = append(out, ok(name, label, "installed (its version is unknown: no package.json of "+core.CompanionPackage+" beside the binary)"))
	default:
		out = append(out, ok(name, label, fmt.Sprintf("not installed (optional: it keeps several agent accounts apart; install it with `%s`)", core.CompanionInstallCommand)))
	}
	if err != nil {
		path, _ := dismiss.Path(r.Sys)
		out = append(out, fail("dismissals", "Dismissals", err.Error(),
			fmt.Sprintf("fix the JSON in %s, or remove the file (it only lists the recommendations you hid)", path)))
	}
	return out
}

// profileCheck: which agent-switch profile is active, which variable chose it,
// and variables that point into the companion's home but choose nothing.
func profileCheck(r *run) []Check {
	const name, label = "profile", "Profile"
	var out []Check
	p := profile.Active(r.Sys)
	vars := profile.Vars(r.Sys)
	if p.Active {
		msg := p.Name()
		for _, v := range vars {
			if v.Selected {
				msg += fmt.Sprintf(", chosen by %s=%s", v.Name, v.Value)
			}
		}
		out = append(out, ok(name, label, msg))
	} else {
		home, err := profile.CompanionHome(r.Sys)
		if err != nil {
			home = "the agent-switch home"
		}
		// The variables named are the agent table's, in its order.
		var named []string
		for _, a := range r.Sys.AgentTable.All() {
			if a.DirVar != "" && !slices.Contains(named, a.DirVar) {
				named = append(named, a.DirVar)
			}
		}
		which := "*_CONFIG_DIR"
		if len(named) > 0 {
			which = strings.Join(named, ", ") + " or other " + which
		}
		out = append(out, ok(name, label, fmt.Sprintf("none active (no %s points into %s)", which, home)))
	}
	if m := profile.Mixed(r.Sys); len(m) > 0 {
		out = append(out, warn("profile-mixed", "Profile variables",
			fmt.Sprintf("the variables name profiles of different providers: %s; charter uses %s/%s, except that an agent's hook and `charter apply --agent A` use that agent's own variable", core.MixedText(m), m[0].Provider, m[0].Profile),
			fmt.Sprintf("start each agent in its own profile (`%s run --provider PROVIDER NAME` sets only that provider's variable), or unset the variable that does not belong", core.CompanionBinary)))
	}
	for _, v := range vars {
		if v.Ignored == "" || v.Selected || strings.Contains(v.Ignored, "already chose") {
			continue
		}
		out = append(out, warn("profile-var:"+v.Name, "Profile variable",
			fmt.Sprintf("%s=%s chooses no profile: %s", v.Name, v.Value, v.Ignored),
			fmt.Sprintf("point %s at <agent-switch home>/<provider>/<profile>/config, or unset it", v.Name)))
	}
	return out
}

// rootSource says where the config root came from.
func rootSource(source string) string {
	switch source {
	case core.SourceFlag:
		return "from --config-root"
	case core.SourceEnv:
		return "from " + core.ConfigHomeVar
	case core.SourceDefault:
		return "the default"
	}
	return ""
}

// configRoot: the root resolves, and it exists and is writable, or can be
// created on the first write.
func configRoot(r *run) []Check {
	const name, label = "config-root", "Config root"
	if r.scopeErr != nil {
		return []Check{fail(name, label, r.scopeErr.Error(), "give --config-root or "+core.ConfigHomeVar+" a directory whose parent exists, or leave both out for the default")}
	}
	root := r.scope.Root
	msg := fmt.Sprintf("%s (%s)", root.Path, rootSource(root.Source))
	if root.Source != core.SourceDefault {
		if parent := r.Sys.Paths.Dir(root.Path); !exists(r.Sys, parent) {
			return []Check{fail(name, label, fmt.Sprintf("%s: its parent %s does not exist", msg, parent),
				fmt.Sprintf("create %s first, or correct the path", parent))}
		}
	}
	return []Check{dirCheck(r.Sys, name, label, msg, root.Path)}
}

// scopeDir: which scope this is, and its directory.
func scopeDir(r *run) []Check {
	const name, label = "scope", "Scope"
	if r.scopeErr != nil {
		return r.needScope(name, label)
	}
	sc := r.scope
	var msg string
	switch sc.Kind {
	case core.ScopeProfile:
		msg = fmt.Sprintf("profile %s: %s", sc.Profile.Name(), sc.Path)
	case core.ScopeHost:
		msg = "host root: " + sc.Path
		if sc.Profile.Active {
			msg += fmt.Sprintf(" (profile %s is active, but a root given by a host holds the settings)", sc.Profile.Name())
		}
	default:
		msg = "global: " + sc.Path
	}
	if sc.Path == sc.Root.Path {
		return []Check{ok(name, label, msg)} // the root's line covers the directory
	}
	return []Check{dirCheck(r.Sys, name, label, msg, sc.Path)}
}

// dirCheck says whether dir, or the directory it would be created in, can
// be written.
func dirCheck(sys *core.System, name, label, msg, dir string) Check {
	at := dir
	for !exists(sys, at) {
		parent := sys.Paths.Dir(at)
		if parent == at {
			break
		}
		at = parent
	}
	fi, err := sys.Fs.Stat(at)
	if err == nil && !fi.IsDir() {
		return fail(name, label, fmt.Sprintf("%s: %s is a file, not a directory", msg, at),
			fmt.Sprintf("move %s away, or choose another directory", at))
	}
	if err == nil {
		err = probeWrite(sys, at)
	}
	if err != nil {
		return fail(name, label, fmt.Sprintf("%s: %s cannot be written: %v", msg, at, err),
			fmt.Sprintf("make %s writable for your user (chmod u+rwx), or choose another root with --config-root", at))
	}
	if at != dir {
		msg += "; created on the first write"
	}
	return ok(name, label, msg)
}

// probeWrite creates a file in dir and removes it again: only a write
// tells for sure, whatever the platform's permission model.
func probeWrite(sys *core.System, dir string) error {
	f, err := afero.TempFile(sys.Fs, dir, ".charter-doctor-*")
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return pe.Err
		}
		return err
	}
	f.Close()
	return sys.Fs.Remove(f.Name())
}

func exists(sys *core.System, p string) bool {
	_, err := sys.Fs.Stat(p)
	return err == nil
}

// projectSource says how the project was found.
func projectSource(source string) string {
	switch source {
	case core.SourceFlag:
		return "from --project-dir"
	case core.SourceEnv:
		return "from " + core.ProjectDirVar
	case core.SourceDiscovered:
		return "found from the working directory"
	}
	return ""
}

// projectDir: which project's files the settings read, if any.
func projectDir(r *run) []Check {
	const name, label = "project", "Project"
	p := r.project
	switch {
	case r.projectErr != nil:
		return []Check{fail(name, label, r.projectErr.Error(),
			"give --project-dir the project's root directory, correct or unset "+core.ProjectDirVar+", or give --no-project")}
	case p == nil:
		return []Check{ok(name, label, "no project: only your own settings apply (a project holds .charter/settings.yaml or .charter/settings.local.yaml)")}
	}
	msg := p.Dir
	if src := projectSource(p.Source); src != "" {
		msg += " (" + src + ")"
	}
	if len(p.Files) == 0 {
		return []Check{ok(name, label, msg+"; it has no settings file yet")}
	}
	rel := make([]string, len(p.Files))
	for i, f := range p.Files {
		rel[i] = f
		if within, ok := r.Sys.Paths.Within(p.Dir, f); ok {
			rel[i] = r.Sys.Paths.Join(within...)
		}
	}
	return []Check{ok(name, label, msg+": "+strings.Join(rel, ", "))}
}

// policyFile: the administrator's policy, when there is one, can be read
// and holds only valid rules. A policy charter cannot read makes every
// command that reads settings fail.
func policyFile(r *run) []Check {
	const name, label = "policy", "Policy"
	switch {
	case r.policyErr != nil:
		return []Check{fail(name, label, r.policyErr.Error(),
			"fix the policy file by hand, or ask whoever manages it (charter reads it but never writes it; "+settings.PolicyVar+" points charter at another file)")}
	case r.policy != nil:
		return []Check{ok(name, label, fmt.Sprintf("%s is valid; it rules %s", r.policy.Path, core.Plural(len(r.policy.Keys()), "key")))}
	}
	path, _ := settings.PolicyPath(r.Sys) // an error would have come from the load
	return []Check{ok(name, label, "no policy ("+path+" does not exist)")}
}

// settingsFiles: every settings file this scope reads parses, and every
// value in it is valid; each problem is listed with its line.
func settingsFiles(r *run) []Check {
	if r.scopeErr != nil {
		return r.needScope("settings", "Settings")
	}
	type file struct{ name, label, path, fix string }
	files := []file{{"settings", "Settings", r.store.Path(), "fix it with `charter settings edit`"}}
	if r.scope.Kind == core.ScopeProfile {
		global := r.Sys.Paths.Join(r.scope.Root.Path, settings.FileName)
		files = append([]file{{"global-settings", "Global settings", global,
			"fix it with `charter settings edit` run with no agent-switch profile active"}}, files...)
	}
	if p := r.project; p != nil {
		// Only the files there: a project needs one of them, not both.
		for _, f := range p.Files {
			switch f {
			case p.SettingsPath():
				files = append(files, file{"project-settings", "Project settings", f, "fix it with `charter settings edit --project`"})
			case p.LocalPath():
				files = append(files, file{"project-local-settings", "Project local settings", f, "fix it with `charter settings edit --local`"})
			}
		}
	}
	var out []Check
	for _, f := range files {
		data, err := readFile(r, f.path)
		switch {
		case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR): // a file in the way has its own line
			out = append(out, ok(f.name, f.label, f.path+" does not exist yet: the defaults apply"))
		case core.ErrorCode(err) == core.CodeOutsideProject:
			out = append(out, fail(f.name, f.label, err.Error(), "replace the link with the file itself, or remove it"))
		case err != nil && core.ErrorCode(err) != core.CodeInternal: // a FIFO, a device, too large: the message says what to do
			out = append(out, fail(f.name, f.label, err.Error(), f.fix))
		case err != nil:
			out = append(out, fail(f.name, f.label, fmt.Sprintf("read %s: %v", f.path, err), "make the file readable for your user"))
		default:
			if err := settings.Validate(f.path, data); err != nil {
				out = append(out, fail(f.name, f.label, err.Error(), f.fix))
			} else {
				out = append(out, ok(f.name, f.label, f.path+" is valid"))
			}
		}
	}
	return out
}

// unknownKeys: keys in the files that are no setting do nothing; most are
// typos.
func unknownKeys(r *run) []Check {
	if r.scopeErr != nil {
		return nil
	}
	snap, err := r.store.Read()
	if err != nil || len(snap.Unknown) == 0 {
		return nil // a file that cannot be read has its own line
	}
	msgs := make([]string, len(snap.Unknown))
	for i, k := range snap.Unknown {
		msgs[i] = settings.UnknownKeyMessage(k)
	}
	return []Check{warn("unknown-keys", "Unknown keys", strings.Join(msgs, "; "),
		"rename or remove them with `charter settings edit`: charter keeps them, but they change nothing")}
}

// sharedLinks: a write path behind a link agent-switch shares between
// profiles changes every profile at once.
func sharedLinks(r *run) []Check {
	const name, label = "shared-links", "Shared links"
	type target struct {
		what, path string
		sh         fsys.Shared
	}
	var targets []target
	var errs []string
	add := func(what, path string) {
		sh, err := r.Sys.SharedAt(path)
		if err != nil {
			errs = append(errs, err.Error())
		}
		targets = append(targets, target{what, path, sh})
	}
	if r.scopeErr == nil {
		add("settings", r.store.Path())
	}
	if p, err := dismiss.Path(r.Sys); err == nil {
		add("dismissals", p)
	}
	// The agent files' paths need no settings: a malformed file does not
	// hide a link on the way to CLAUDE.md.
	if files, err := apply.Files(r.Sys, nil); err == nil {
		for _, f := range files {
			add("agent file "+f.Agent, f.Path)
		}
	}
	var out []Check
	for _, t := range targets {
		link := t.sh.Path
		if link == "" {
			continue
		}
		where := fmt.Sprintf("%s (%s) is a link agent-switch shares between profiles", t.path, t.what)
		switch {
		case len(t.sh.Readers) > 0 && link == t.path:
			where = fmt.Sprintf("%s (%s) is the shared source agent-switch links %s to", t.path, t.what, core.ReadersText(t.sh.Readers))
		case len(t.sh.Readers) > 0:
			where = fmt.Sprintf("%s (%s) lies in %s, the shared folder agent-switch links %s to", t.path, t.what, link, core.ReadersText(t.sh.Readers))
		case link != t.path:
			where = fmt.Sprintf("%s (%s) lies in %s, a folder agent-switch shares between profiles", t.path, t.what, link)
		}
		out = append(out, warn(name+":"+strings.ReplaceAll(t.what, " ", "-"), label, where+": a write there changes every profile",
			fmt.Sprintf("charter asks before each such write (--confirm-shared); %s", core.ShareOffHint())))
	}
	if len(errs) > 0 {
		out = append(out, warn(name, label, "could not check every path: "+strings.Join(errs, "; "), "make the paths readable for your user"))
	}
	if len(out) == 0 {
		out = append(out, ok(name, label, fmt.Sprintf("none on the %d paths charter writes", len(targets))))
	}
	return out
}

// server: a running server, or a discovery file its process left behind.
func server(r *run) []Check {
	const name, label = "server", "Server"
	if r.Server == nil {
		return nil
	}
	if r.scopeErr != nil {
		return r.needScope(name, label)
	}
	st := r.Server(r.Sys, r.scope)
	switch {
	case st.Running:
		return []Check{ok(name, label, fmt.Sprintf("running at %s (pid %d); `charter serve --open` opens its hub", st.URL, st.PID))}
	case st.Stale != "":
		return []Check{warn(name, label, fmt.Sprintf("%s is stale: %s", st.Discovery, st.Stale),
			"nothing to do: `charter serve` replaces it when it starts; or remove the file")}
	}
	return []Check{ok(name, label, "not running (start it with `charter serve`)")}
}
