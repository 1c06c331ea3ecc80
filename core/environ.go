package core

import (
	"strings"

	"github.com/agentkit/charter/core/agents"
)

// EnvVar is one environment variable charter reads, and what for.
type EnvVar struct {
	Name string `json:"name"`
	Use  string `json:"use"`
}

// PolicyFileVar overrides where the policy file is read from.
const PolicyFileVar = "AGENTKIT_POLICY_FILE"

// Environment lists every variable charter reads, for `charter help
// environment` and the man page: the one list, which a test in coretest
// checks against what the code reads.
func Environment(table []agents.Agent) []EnvVar {
	vars := []EnvVar{
		{"HOME", "The user's home: the default config root and agent directories lie below it (USERPROFILE on Windows when HOME is blank)."},
		{"USERPROFILE", "The home on Windows when HOME is not set."},
		{ConfigHomeVar, "The config root a host chose (--config-root overrides it); blank counts as unset."},
		{CompanionHomeVar, "agent-switch's home, where charter looks for the companion, its profiles and state.json."},
		{ProjectDirVar, "The project whose .charter/ settings apply (--project-dir overrides it, --no-project ignores it); blank counts as unset."},
		{PolicyFileVar, "The policy file, instead of /etc/agentkit/charter/policy.yaml (macOS: /Library/Application Support/…, Windows: %ProgramData%\\…)."},
		{"ProgramData", "Windows: where the policy file lies when AGENTKIT_POLICY_FILE is not set (also PROGRAMDATA)."},
		{"PROGRAMDATA", "The same as ProgramData, as some shells spell it."},
	}
	var xdg []string
	for _, a := range table {
		switch {
		case a.DirSub != "":
			vars = append(vars, EnvVar{a.DirVar, a.Name + "'s user-level directory is " + a.DirSub + "/ below it (an absolute path; a relative one is ignored, as " + a.Name + " ignores it), instead of ~/" + a.DefaultDir + "."})
		case a.DirVar != "":
			vars = append(vars, EnvVar{a.DirVar, a.Name + "'s user-level directory, instead of ~/" + a.DefaultDir + "."})
		}
		if a.XDGDir != "" {
			xdg = append(xdg, a.Name+"'s is "+a.XDGDir+"/ below it")
		}
	}
	if xdg != nil {
		vars = append(vars, EnvVar{agents.XDGConfigVar, "The user's config folder instead of ~/.config, for the agents that follow it (an absolute path): " + strings.Join(xdg, "; ") + "."})
	}
	return append(vars,
		EnvVar{"PATH", "Where charter finds the agents, agent-switch and the editor; gates run with it."},
		EnvVar{"PATHEXT", "Windows: the extensions a program may have on PATH."},
		EnvVar{"VISUAL", "The editor `settings edit` starts, before EDITOR."},
		EnvVar{"EDITOR", "The editor `settings edit` starts when VISUAL is not set."},
		EnvVar{"TMPDIR", "Where `settings edit` keeps the copy being edited (TMP and TEMP on Windows)."},
		EnvVar{"TMP", "Windows: as TMPDIR."},
		EnvVar{"TEMP", "Windows: as TMPDIR."},
		EnvVar{"NO_COLOR", "Set and not empty: no colour in any output."},
		EnvVar{"CLICOLOR_FORCE", "Set and not 0: colour even when the output is not a terminal (NO_COLOR still wins)."},
		EnvVar{"TERM", "dumb: no colour and no progress line."},
		EnvVar{"COLUMNS", "The width the help is wrapped to, instead of the terminal's (80 when there is none)."},
		EnvVar{"GOCACHE", "Go's build cache: apply will not write a hook that runs a charter built by `go run` inside it (also XDG_CACHE_HOME, LocalAppData)."},
		EnvVar{"XDG_CACHE_HOME", "Where Go's build cache is when GOCACHE is not set."},
		EnvVar{"LocalAppData", "Windows: where Go's build cache is when GOCACHE is not set."},
		EnvVar{"GOMEMLIMIT", "Go's soft memory limit: when it is set, apply keeps it instead of its own (256 MiB)."},
		EnvVar{"GOGC", "Go's collector target: when it is set, apply keeps it instead of its own (400 while the live heap is under 16 MB, then Go's 100)."},
		EnvVar{"SSH_AUTH_SOCK", "Passed to git when charter fetches a shared source, so that ssh keys in an agent reach private repositories."},
		EnvVar{"SSH_AGENT_PID", "Passed to git with SSH_AUTH_SOCK when charter fetches a shared source."},
		EnvVar{"GIT_SSH_COMMAND", "Passed to git when charter fetches a shared source: the ssh command git runs."},
		EnvVar{"HTTPS_PROXY", "Passed to git when charter fetches a shared source (also https_proxy)."},
		EnvVar{"HTTP_PROXY", "Passed to git when charter fetches a shared source (also http_proxy)."},
		EnvVar{"NO_PROXY", "Passed to git when charter fetches a shared source: hosts reached without the proxy (also no_proxy)."},
		EnvVar{"CHARTER_GATE_RUN", "Set by charter in a gate's environment (a mark to find the gate's processes); charter never reads it from its own."},
	)
}
