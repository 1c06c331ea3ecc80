package content

import (
	"cmp"
	"slices"
	"strings"

	"github.com/agentkit/charter/core/settings"
)

// Selection is what the settings say about which items are active.
type Selection struct {
	Tier           string   // rules.tier: minimal, balanced or full
	RulesDisabled  []string // rules.disabled
	SkillsDisabled []string // skills.disabled
}

// SelectionOf reads a selection from a settings snapshot's values.
func SelectionOf(values map[string]any) Selection {
	sel := Selection{Tier: TierBalanced}
	if t, ok := values[settings.KeyRulesTier].(string); ok && t != "" {
		sel.Tier = t
	}
	sel.RulesDisabled, _ = values[settings.KeyRulesDisabled].([]string)
	sel.SkillsDisabled, _ = values[settings.KeySkillsDisabled].([]string)
	return sel
}

// Entry is an item of the effective set with its state. Item is a copy:
// Level is the level of the set it is in.
type Entry struct {
	Item
	State string `json:"state"` // active, disabled, below_tier or policy
}

// Active reports whether the entry is projected: active or policy.
func (e Entry) Active() bool { return e.State == StateActive || e.State == StatePolicy }

// tierRank orders tiers; an unknown one ranks as balanced.
func tierRank(t string) int {
	if i := slices.Index(Tiers(), t); i >= 0 {
		return i
	}
	return 1
}

// Effective is the effective set at level (SPEC §12 "Which items are
// active", "§12 pinned details"): LevelUser holds the global, scope and
// policy items, LevelProject the project and policy items, and "" every
// layer's (what `rules list` shows for the current directory). A higher
// layer's item replaces a lower one of the same kind and name whole. The
// entries come by kind, then name.
//
// A policy item is always active (state policy), whatever the selection
// names: a settings file that names one in rules.disabled or
// skills.disabled is ignored for it (doctor warns). A disabled rule above
// the tier shows disabled.
func (l *Library) Effective(level string, sel Selection) []Entry {
	hasProject := slices.ContainsFunc(l.Layers, func(ly Layer) bool { return ly.Name == settings.LayerProject })
	// Sorted and replaced by pointer: an Entry is a few hundred bytes, and
	// a library holds thousands.
	type pick struct {
		it           *Item
		state, level string
	}
	byKey := make(map[string]int, len(l.Items))
	picks := make([]pick, 0, len(l.Items))
	for _, it := range l.Items {
		if !inLevel(it.Layer, level) {
			continue
		}
		p := pick{it: it, state: StateActive, level: it.Level}
		switch {
		case it.Layer == settings.LayerPolicy:
			p.state = StatePolicy
			if level == LevelProject || (level == "" && hasProject) {
				p.level = LevelProject
			}
		case it.Kind == KindRule && slices.Contains(sel.RulesDisabled, it.Name),
			it.Kind == KindSkill && slices.Contains(sel.SkillsDisabled, it.Name):
			p.state = StateDisabled
		case it.Kind == KindRule && tierRank(it.Tier) > tierRank(sel.Tier):
			p.state = StateBelowTier
		}
		key := it.Key()
		if i, ok := byKey[key]; ok {
			picks[i] = p // Items are lowest layer first
			continue
		}
		byKey[key] = len(picks)
		picks = append(picks, p)
	}
	slices.SortFunc(picks, func(a, b pick) int {
		if c := cmp.Compare(kindRank(a.it.Kind), kindRank(b.it.Kind)); c != 0 {
			return c
		}
		return strings.Compare(a.it.Name, b.it.Name)
	})
	out := make([]Entry, len(picks))
	for i, p := range picks {
		out[i] = Entry{Item: *p.it, State: p.state}
		out[i].Level = p.level
	}
	return out
}

// kindRank orders kinds as Kinds lists them.
func kindRank(k Kind) int {
	switch k {
	case KindRule:
		return 0
	case KindSkill:
		return 1
	case KindCommand:
		return 2
	case KindSubagent:
		return 3
	}
	return 4
}

// ActiveItems is the entries of Effective that are projected.
func (l *Library) ActiveItems(level string, sel Selection) []Entry {
	all := l.Effective(level, sel)
	out := all[:0]
	for _, e := range all {
		if e.Active() {
			out = append(out, e)
		}
	}
	return out
}

// inLevel reports whether a layer's items belong to the set at level.
func inLevel(layer, level string) bool {
	switch level {
	case LevelUser:
		return layer != settings.LayerProject
	case LevelProject:
		return layer == settings.LayerProject || layer == settings.LayerPolicy
	}
	return true
}

// PolicyNames lists the names of the policy folder's items of kind k.
func (l *Library) PolicyNames(k Kind) []string {
	var out []string
	for _, it := range l.Items {
		if it.Layer == settings.LayerPolicy && it.Kind == k {
			out = append(out, it.Name)
		}
	}
	return out
}

// Find returns the effective entry of kind k named name at level.
func (l *Library) Find(level string, sel Selection, k Kind, name string) (Entry, bool) {
	for _, e := range l.Effective(level, sel) {
		if e.Kind == k && e.Name == name {
			return e, true
		}
	}
	return Entry{}, false
}
