package settings

// Permissions and MCP servers added up over the layers (SPEC §14). Unlike
// other keys, where the highest layer wins, every layer's rules count,
// and the policy's deny and ask stand whatever a lower layer says.

import (
	"slices"
	"strings"
)

// PermEntry is one rule in force, with where it comes from.
type PermEntry struct {
	Verdict string `json:"verdict"` // deny, ask or allow
	Rule    string `json:"rule"`
	Origin  string `json:"origin"` // the file, as origins are
	Layer   string `json:"layer"`
	// Locked: the policy's deny or ask, which no lower layer can loosen.
	Locked bool `json:"locked"`
}

// Governance is the effective permissions and servers of a snapshot.
type Governance struct {
	Permissions []PermEntry `json:"permissions"` // deny, then ask, then allow; policy first
	// Refused are a lower layer's rules that would loosen the policy
	// (written by hand past charter's check): never projected.
	Refused  []PermEntry `json:"refused"`
	Servers  []Server    `json:"servers"`  // by name; a higher layer's replaces a lower one's
	Disabled []string    `json:"disabled"` // mcp.disabled of every layer
	Allowed  []string    `json:"allowed"`  // the policy's mcp.allowed; nil: any
	Required []string    `json:"required"` // the policy's mcp.required
	Policy   string      `json:"policy,omitempty"`
}

func (st *Store) governance(ls []*layer, fls []fileLayer) *Governance {
	g := &Governance{Permissions: []PermEntry{}, Refused: []PermEntry{}, Servers: []Server{}, Disabled: []string{},
		Allowed: st.policy.MCPAllowed(), Required: st.policy.MCPRequired()}
	seen := map[string]bool{}
	add := func(e PermEntry) {
		if k := e.Verdict + "\x00" + e.Rule; !seen[k] {
			seen[k] = true
			g.Permissions = append(g.Permissions, e)
		}
	}
	if st.policy != nil {
		g.Policy = st.policy.Path
	}
	for _, verdict := range verdicts {
		for _, r := range st.policy.PolicyRules(verdict) {
			add(PermEntry{Verdict: verdict, Rule: r, Origin: st.policy.Path, Layer: LayerPolicy, Locked: verdict != "allow"})
		}
		key := VerdictKey(verdict)
		for i := len(ls) - 1; i >= 0; i-- { // highest layer first
			for _, v := range ls[i].values {
				if v.key != key {
					continue
				}
				for _, r := range v.v.([]string) {
					e := PermEntry{Verdict: verdict, Rule: r, Origin: ls[i].path, Layer: fls[i].name}
					if st.policy.checkGov(key, []string{r}) != nil {
						g.Refused = append(g.Refused, e)
						continue
					}
					add(e)
				}
			}
		}
	}
	byName := map[string]int{}
	put := func(s Server) {
		if i, ok := byName[s.Name]; ok {
			g.Servers[i] = s
			return
		}
		byName[s.Name] = len(g.Servers)
		g.Servers = append(g.Servers, s)
	}
	for i, l := range ls {
		for _, s := range l.servers {
			s.Origin, s.Layer = l.path, fls[i].name
			put(s)
		}
		for _, v := range l.values {
			if v.key == KeyMCPDisabled {
				for _, n := range v.v.([]string) {
					if !slices.Contains(g.Disabled, n) && !slices.Contains(g.Required, n) {
						g.Disabled = append(g.Disabled, n)
					}
				}
			}
		}
	}
	if st.policy != nil {
		for _, s := range st.policy.gov.servers {
			put(s) // the policy's own servers win
		}
	}
	return g
}

// ServerState says whether a server is projected, and why not.
func (g *Governance) ServerState(s Server) string {
	switch {
	case slices.Contains(g.Disabled, s.Name):
		return "disabled"
	case g.Allowed != nil && !g.allowed(s):
		return "not_allowed"
	}
	return "enabled"
}

func (g *Governance) allowed(s Server) bool {
	for _, a := range g.Allowed {
		if a == s.Name || s.URL != "" && strings.Contains(a, "://") && strings.HasPrefix(s.URL, a) {
			return true
		}
	}
	return false
}

// Rules lists the rules of one verdict in force.
func (g *Governance) Rules(verdict string) []PermEntry {
	var out []PermEntry
	for _, e := range g.Permissions {
		if e.Verdict == verdict {
			out = append(out, e)
		}
	}
	return out
}

// Decide finds the rule that decides action (a rule in the same grammar
// naming a concrete command, path, domain or server/tool): the first deny
// that matches, else the first ask, else the first allow; nil when no
// rule does and the agent's own default applies.
func (g *Governance) Decide(action Rule) *PermEntry {
	for _, verdict := range verdicts {
		for _, e := range g.Permissions {
			if e.Verdict != verdict {
				continue
			}
			if r, err := ParseRule(e.Rule); err == nil && r.Matches(action) {
				return &e
			}
		}
	}
	return nil
}
