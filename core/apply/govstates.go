package apply

// Which servers are projected: mcp.disabled, the policy's mcp.allowed and
// the project's trust, read once for apply and `charter mcp-servers list`.

import (
	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/gates"
	"github.com/agentkit/charter/core/settings"
)

// Why a server is not projected (ServerStates).
const (
	ServerDisabled   = "disabled"    // named in mcp.disabled
	ServerNotAllowed = "not_allowed" // outside the policy's mcp.allowed
	ServerUntrusted  = "untrusted"   // from the project layers of an untrusted project
)

// ServerStates says for each of snap.Gov.Servers why it is not projected,
// "" when it is: the one reading of disabled, allowed and trust that apply
// and `charter mcp-servers list` share.
func ServerStates(sys *core.System, snap *settings.Snapshot) ([]string, error) {
	if snap.Gov == nil {
		return nil, nil
	}
	out := make([]string, len(snap.Gov.Servers))
	var trusted *bool
	for i, s := range snap.Gov.Servers {
		switch snap.Gov.ServerState(s) {
		case "disabled":
			out[i] = ServerDisabled
			continue
		case "not_allowed":
			out[i] = ServerNotAllowed
			continue
		}
		if s.Layer != settings.LayerProject && s.Layer != settings.LayerProjectLocal {
			continue
		}
		if trusted == nil {
			t, err := gates.TrustOf(sys, snap)
			if err != nil {
				return nil, err
			}
			ok := t.Trusted()
			trusted = &ok
		}
		if !*trusted {
			out[i] = ServerUntrusted
		}
	}
	return out, nil
}

// projectedServers are the servers in force: not disabled, in the
// policy's allowed list when it has one, and from the project layers only
// in a trusted project.
func projectedServers(sys *core.System, snap *settings.Snapshot) ([]settings.Server, error) {
	states, err := ServerStates(sys, snap)
	if err != nil {
		return nil, err
	}
	var out []settings.Server
	for i, s := range snap.Gov.Servers {
		if states[i] == "" {
			out = append(out, s)
		}
	}
	return out, nil
}
