package core

import (
	"fmt"
	"strings"
)

// Where a config root came from.
const (
	SourceFlag    = "flag"
	SourceEnv     = "env"
	SourceDefault = "default"
)

// Kinds of scope.
const (
	ScopeGlobal  = "global"
	ScopeProfile = "profile"
	ScopeHost    = "host"
)

// ConfigHomeVar lets a host choose charter's config root.
const ConfigHomeVar = "AGENTKIT_CONFIG_HOME"

// ConfigRoot is the directory charter keeps its files under.
type ConfigRoot struct {
	Path   string `json:"path"`
	Source string `json:"source"`
}

// Profile is the companion profile charter runs inside, if any.
type Profile struct {
	Active   bool    `json:"active"`
	Provider *string `json:"provider"`
	Profile  *string `json:"profile"`
}

// Name is "provider/profile", or "" outside a profile.
func (p Profile) Name() string {
	if !p.Active {
		return ""
	}
	return *p.Provider + "/" + *p.Profile
}

// Scope is where settings, state, token and discovery file live.
type Scope struct {
	Kind    string     `json:"kind"`
	Path    string     `json:"path"`
	Root    ConfigRoot `json:"-"`
	Profile Profile    `json:"-"`
}

// VarProfile is a profile one variable names.
type VarProfile struct {
	Variable string `json:"variable"`
	Provider string `json:"provider"`
	Profile  string `json:"profile"`
}

// MixedText names each variable with its profile, for ping and doctor.
func MixedText(m []VarProfile) string {
	parts := make([]string, len(m))
	for i, v := range m {
		parts[i] = fmt.Sprintf("%s names %s/%s", v.Variable, v.Provider, v.Profile)
	}
	return strings.Join(parts, ", ")
}
