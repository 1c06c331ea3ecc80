package core

// Name is the product name in every document charter prints or serves.
const Name = "charter"

// Capabilities lists what this build supports. Clients test these flags,
// never version numbers.
func Capabilities() map[string]bool {
	return map[string]bool{"configRoot": true, "projectLayer": true, "policy": true}
}

// PingDoc is the answer to GET /api/v1/ping and `charter ping`.
type PingDoc struct {
	OK              bool            `json:"ok"`
	Name            string          `json:"name"`
	Version         string          `json:"version"`
	SwitcherProfile Profile         `json:"switcherProfile"`
	Capabilities    map[string]bool `json:"capabilities"`
	ConfigRoot      ConfigRoot      `json:"configRoot"`
	Scope           Scope           `json:"scope"`
	Project         *Project        `json:"project"` // null without a project
	Policy          *PolicyRef      `json:"policy"`  // null when the policy file does not exist
	Trust           *TrustState     `json:"trust"`   // null without a project
	// MixedProfiles: the variables name profiles of different providers
	// (System.MixedProfiles); absent when they do not.
	MixedProfiles []VarProfile `json:"mixedProfiles,omitempty"`
}

// MixedText names each variable of MixedProfiles with its profile.
func (d PingDoc) MixedText() string { return MixedText(d.MixedProfiles) }

// TrustState is the project's trust state in ping (SPEC §13): trusted,
// untrusted or not_needed; unknown when the settings cannot be read (ping
// still answers, and Error says why).
type TrustState struct {
	State string `json:"state"`
	// Command trusts the project; set while it is untrusted.
	Command string `json:"command,omitempty"`
	Error   string `json:"error,omitempty"`
}

// PolicyRef names the policy file in force.
type PolicyRef struct {
	Path string `json:"path"`
}

// WithLayers adds the project (nil: none) and the policy file ("": none
// exists) to the document.
func (d PingDoc) WithLayers(project *Project, policy string) PingDoc {
	d.Project = project
	if policy != "" {
		d.Policy = &PolicyRef{Path: policy}
	}
	return d
}

// WithMixed adds the profiles of different providers the variables name.
func (d PingDoc) WithMixed(m []VarProfile) PingDoc {
	d.MixedProfiles = m
	return d
}

// Ping describes this charter and the scope it works in.
func Ping(sc Scope, version string) PingDoc {
	return PingDoc{
		OK:              true,
		Name:            Name,
		Version:         version,
		SwitcherProfile: sc.Profile,
		Capabilities:    Capabilities(),
		ConfigRoot:      sc.Root,
		Scope:           sc,
	}
}
