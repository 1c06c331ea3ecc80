package session

import (
	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/agents"
	"github.com/agentkit/charter/core/gates"
	"github.com/agentkit/charter/core/settings"
)

// Vocabulary is the words charter knows, fixed in this build: what shell
// completion offers and `--version --json` reports. It needs no scope, so
// it is a function of the package, not of a session.
type Vocabulary struct {
	Agents       []agents.Agent     // the agent table
	Gates        []string           // the quality gates
	Capabilities map[string]bool    // what this build supports
	Keys         []settings.Key     // every setting, in schema order
	Sections     []settings.Section // the settings' sections
}

// Words is this build's vocabulary.
func Words() Vocabulary {
	return Vocabulary{
		Agents:       agents.Default(),
		Gates:        gates.Names(),
		Capabilities: core.Capabilities(),
		Keys:         settings.Keys(),
		Sections:     settings.Sections(),
	}
}

// Capabilities are Words().Capabilities without building the other
// tables: the version document, printed on every host's probe, needs only
// these.
func Capabilities() map[string]bool { return core.Capabilities() }

// Key is the setting called name, or false when there is none.
func (Vocabulary) Key(name string) (settings.Key, bool) { return settings.Lookup(name) }
