package core

// Name is the product name in every document charter prints or serves.
const Name = "charter"

// Capabilities lists what this build supports. Clients test these flags,
// never version numbers.
func Capabilities() map[string]bool {
	return map[string]bool{"configRoot": true}
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
