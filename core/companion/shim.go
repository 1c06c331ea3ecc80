package companion

import (
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/fsys"
)

// Package managers that install the companion behind a shim: the binary on
// PATH is a small script (pnpm, npm's Windows .cmd and .ps1) or a link to
// one shared launcher (volta), and the package lies below it, not above.
// charter reads the shim, never runs it (SPEC §4).

// shimDirVars are the spellings of "the shim's own directory" in the
// scripts pnpm (sh: $basedir), npm on Windows (cmd: %dp0%, %~dp0;
// PowerShell: $basedir, $PSScriptRoot) write.
var shimDirVars = []string{"${basedir}", "$basedir", "%~dp0", "%dp0%", "$PSScriptRoot"}

// shimVersion finds the package a shim script names and reads its
// version; volta's launcher names none, so its package tree is looked up.
func shimVersion(s *core.System, bin string, in *[]string) *string {
	if v := voltaVersion(s, bin, in); v != nil {
		return v
	}
	data, err := s.ReadFile(bin, fsys.KindManifest) // a real program is over the cap: skipped
	if err != nil {
		return nil
	}
	text, dir := string(data), s.Paths.Dir(bin)
	for _, pkg := range []string{core.CompanionPackage, strings.ReplaceAll(core.CompanionPackage, "/", `\`)} {
		for off := 0; ; {
			i := strings.Index(text[off:], pkg)
			if i < 0 {
				break
			}
			i += off
			off = i + len(pkg)
			start := strings.LastIndexAny(text[:i], "\"'` \t\r\n=(") + 1
			p := shimPath(s, text[start:off], dir)
			if p == "" {
				continue
			}
			manifest := s.Paths.Join(p, "package.json")
			*in = append(*in, manifest)
			if v, ok := packageVersion(s, manifest); ok {
				return &v
			}
		}
	}
	return nil
}

// shimPath turns a path as a shim spells it into an absolute one: the
// shim's directory variable is its own directory, and a relative path is
// relative to it. "" when the text is not a usable path.
func shimPath(s *core.System, p, dir string) string {
	for _, v := range shimDirVars {
		if strings.HasPrefix(p, v) {
			p = dir + "/" + strings.TrimLeft(p[len(v):], `/\`)
			break
		}
	}
	if strings.ContainsAny(p, "$%") {
		return "" // another variable: not a place charter can know
	}
	if s.Paths.Windows {
		p = strings.ReplaceAll(p, "/", `\`)
	} else {
		p = strings.ReplaceAll(p, `\`, "/")
	}
	if !s.Paths.IsAbs(p) {
		p = s.Paths.Join(dir, p)
	}
	return s.Paths.Clean(p)
}

// voltaVersion: volta links every tool to its one launcher,
// <volta home>/bin/volta-shim, and installs a package under
// <volta home>/tools/image/packages/<name>/ (lib/node_modules/<name> on
// Unix, node_modules/<name> on Windows).
func voltaVersion(s *core.System, bin string, in *[]string) *string {
	real := realPath(s, bin)
	base := strings.ToLower(s.Paths.Base(real))
	if base != "volta-shim" && base != "volta-shim.exe" {
		return nil
	}
	image := s.Paths.Join(s.Paths.Dir(s.Paths.Dir(real)), "tools", "image", "packages", core.CompanionPackage)
	for _, sub := range [][]string{{"lib", "node_modules"}, {"node_modules"}} {
		manifest := s.Paths.Join(append(append([]string{image}, sub...), core.CompanionPackage, "package.json")...)
		*in = append(*in, manifest)
		if v, ok := packageVersion(s, manifest); ok {
			return &v
		}
	}
	return nil
}
