package core

// Every fact charter knows about agent-switch, its companion, so that a
// change to the companion is one edit here.
const (
	CompanionBinary          = "agent-switch"
	CompanionHomeVar         = "AGENT_SWITCH_HOME"
	CompanionHomeDir         = ".agent-switch"
	CompanionPackage         = "@event4u/agent-switch"
	CompanionInstallCommand  = "npm install -g @event4u/agent-switch"
	CompanionRepo            = "https://github.com/event4u-app/agent-switch"
	CompanionShareOffCommand = "agent-switch share off"
	// `agent-switch share on` links each profile of this provider to the
	// share source and lists the links in the manifest in each profile's
	// config directory (agent-switch src/share.ts).
	CompanionShareProvider = "claude"
	CompanionShareManifest = ".agent-switch-shared.json"
	// The companion's record of each provider's active profile
	// (src/profiles.ts STATE_FILE: {"active":{"claude":"work",…}}).
	CompanionStateFile        = "state.json"
	CompanionRecommendationID = "agent-switch"
	// The provider whose profile is entered by pointing HOME itself at
	// <companion home>/<provider>/<name>/<CompanionProfileConfig>.
	CompanionHomeProvider  = "antigravity"
	CompanionProfileConfig = "config"
)
