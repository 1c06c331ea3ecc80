// Package companion sees agent-switch, the profile companion, as charter
// does: installed or not, its version, and whether the user dismissed the
// recommendation to install it. It never runs it (SPEC §4).
package companion

import (
	"encoding/json"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/dismiss"
	"github.com/agentkit/charter/core/fsys"
	"github.com/agentkit/charter/core/profile"
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

// Detect looks for the companion without ever running it: its
// --version is not free of side effects.
func Detect(s *core.System) (Detection, error) {
	d, _, err := DetectInputs(s)
	return d, err
}

// DetectInputs is Detect that also lists every path the
// answer was read from: the PATH directories searched, the candidate files
// found in them, the package.json files tried, the companion home and the
// dismissals file. While none of them changes identity (a directory's
// mtime changes when an entry is added, removed or renamed), the answer
// stays the same: the server caches it on that rule.
func DetectInputs(s *core.System) (Detection, []string, error) {
	var in []string
	d := Detection{Repo: core.CompanionRepo}
	bin := findBinary(s, &in)
	if bin != "" {
		d.Installed = true
		d.Version = companionVersion(s, bin, &in)
	} else if home, err := profile.CompanionHome(s); err == nil {
		in = append(in, home)
		if fi, err := s.Fs.Stat(home); err == nil && fi.IsDir() {
			d.Installed = true
		}
	}
	if !d.Installed {
		cmd := core.CompanionInstallCommand
		d.InstallCommand = &cmd
	}
	if p, err := dismiss.Path(s); err == nil {
		in = append(in, p)
	}
	dismissed, err := dismiss.Dismissed(s, core.CompanionRecommendationID)
	if err != nil {
		return d, in, err
	}
	d.Dismissed = dismissed
	return d, in, nil
}

// findBinary returns the first executable companion binary on PATH; in
// gets the directories searched and the candidates present in them.
func findBinary(s *core.System, in *[]string) string { return s.LookPathIn(core.CompanionBinary, in) }

// companionVersion reads the version from the npm package that ships the
// binary: start beside the binary's real path and climb at most 4 parents;
// else the package a package manager's shim names (companionshim.go).
func companionVersion(s *core.System, bin string, in *[]string) *string {
	dir := s.Paths.Dir(realPath(s, bin))
	for i := 0; i <= 4; i++ {
		*in = append(*in, s.Paths.Join(dir, "package.json"))
		if v, ok := packageVersion(s, s.Paths.Join(dir, "package.json")); ok {
			return &v
		}
		parent := s.Paths.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return shimVersion(s, bin, in)
}

func packageVersion(s *core.System, path string) (string, bool) {
	data, err := s.ReadFile(path, fsys.KindManifest)
	if err != nil {
		return "", false
	}
	var pkg struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	}
	if json.Unmarshal(data, &pkg) != nil || pkg.Name != core.CompanionPackage || pkg.Version == "" {
		return "", false
	}
	return pkg.Version, true
}

// realPath resolves symbolic links where the file system has them.
func realPath(s *core.System, p string) string {
	if r, err := s.RealPath(p); err == nil {
		return r
	}
	return p
}
