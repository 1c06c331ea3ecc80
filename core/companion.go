package core

import (
	"encoding/json"

	"github.com/agentkit/charter/core/fsys"
)

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

// Detection is the companion as charter sees it. It deliberately has no
// notion of "outdated": the companion's own updater owns that question.
type Detection struct {
	Installed      bool    `json:"installed"`
	Version        *string `json:"version"`
	InstallCommand *string `json:"installCommand"`
	Repo           string  `json:"repo"`
	Dismissed      bool    `json:"dismissed"`
}

// DetectCompanion looks for the companion without ever running it: its
// --version is not free of side effects.
func (s *System) DetectCompanion() (Detection, error) {
	d, _, err := s.DetectCompanionInputs()
	return d, err
}

// DetectCompanionInputs is DetectCompanion that also lists every path the
// answer was read from: the PATH directories searched, the candidate files
// found in them, the package.json files tried, the companion home and the
// dismissals file. While none of them changes identity (a directory's
// mtime changes when an entry is added, removed or renamed), the answer
// stays the same: the server caches it on that rule.
func (s *System) DetectCompanionInputs() (Detection, []string, error) {
	var in []string
	d := Detection{Repo: CompanionRepo}
	bin := s.findBinary(&in)
	if bin != "" {
		d.Installed = true
		d.Version = s.companionVersion(bin, &in)
	} else if home, err := s.CompanionHome(); err == nil {
		in = append(in, home)
		if fi, err := s.Fs.Stat(home); err == nil && fi.IsDir() {
			d.Installed = true
		}
	}
	if !d.Installed {
		cmd := CompanionInstallCommand
		d.InstallCommand = &cmd
	}
	if p, err := s.DismissalsPath(); err == nil {
		in = append(in, p)
	}
	dismissed, err := s.Dismissed(CompanionRecommendationID)
	if err != nil {
		return d, in, err
	}
	d.Dismissed = dismissed
	return d, in, nil
}

// findBinary returns the first executable companion binary on PATH; in
// gets the directories searched and the candidates present in them.
func (s *System) findBinary(in *[]string) string { return s.lookPath(CompanionBinary, in) }

// companionVersion reads the version from the npm package that ships the
// binary: start beside the binary's real path and climb at most 4 parents;
// else the package a package manager's shim names (companionshim.go).
func (s *System) companionVersion(bin string, in *[]string) *string {
	dir := s.Paths.Dir(s.realPath(bin))
	for i := 0; i <= 4; i++ {
		*in = append(*in, s.Paths.Join(dir, "package.json"))
		if v, ok := s.packageVersion(s.Paths.Join(dir, "package.json")); ok {
			return &v
		}
		parent := s.Paths.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return s.shimVersion(bin, in)
}

func (s *System) packageVersion(path string) (string, bool) {
	data, err := s.ReadFile(path, fsys.KindManifest)
	if err != nil {
		return "", false
	}
	var pkg struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	}
	if json.Unmarshal(data, &pkg) != nil || pkg.Name != CompanionPackage || pkg.Version == "" {
		return "", false
	}
	return pkg.Version, true
}

// realPath resolves symbolic links where the file system has them.
func (s *System) realPath(p string) string {
	if r, err := s.RealPath(p); err == nil {
		return r
	}
	return p
}
