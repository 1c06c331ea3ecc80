package gates

import (
	"encoding/json"
	"fmt"
	"strings"
)

// tellUntrusted adds to a hook's answer, once per session, that gates were
// not run because the project is not trusted. Such gates never block: a
// repository's commands must not hold the agent before the user trusts
// them. The note rides on an answer that lets the agent stop (a block's
// stdout is ignored), so it waits for the next such stop.
func tellUntrusted(res HookResult, rep Report, st *SessionState, trustCommand string) HookResult {
	un := rep.Untrusted()
	if len(un) == 0 || st.TrustTold || res.ExitCode != 0 {
		return res
	}
	names := make([]string, len(un))
	for i, g := range un {
		names[i] = g.Name
	}
	if trustCommand == "" {
		trustCommand = "charter trust"
	}
	note := fmt.Sprintf("charter: the project's gates %s were not run: the repository's settings set their commands and you have not trusted them. Check .charter/settings.yaml, then run `%s`.",
		strings.Join(names, ", "), trustCommand)
	var prev struct {
		SystemMessage string `json:"systemMessage"`
	}
	if res.Stdout != "" {
		if err := json.Unmarshal([]byte(res.Stdout), &prev); err != nil {
			return res // not a message charter can add to
		}
		note = prev.SystemMessage + "\n" + note
	}
	st.TrustTold = true
	out := systemMessage(res.Decision, note)
	out.ExitCode, out.Stderr = res.ExitCode, res.Stderr
	return out
}
