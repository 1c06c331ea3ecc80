package settings

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
)

// An administrator's rules and skills live in the folder of the policy
// file (SPEC §12), whether or not the file exists, and are always active:
// naming one in rules.disabled or skills.disabled is refused at every
// layer. core/content reads those folders whole; a write needs only the
// names, so it lists them here (settings cannot import content, which
// reads settings' keys).

// disabledKinds maps each disabling key to its source folder and item word.
var disabledKinds = []struct{ key, dir, what string }{
	{KeyRulesDisabled, "rules", "rule"},
	{KeySkillsDisabled, "skills", "skill"},
}

// PolicyItemNames lists the names of the policy folder's rules (NAME.md
// files) or skills (folders), for key rules.disabled or skills.disabled;
// nil for another key or when there are none.
func PolicyItemNames(sys *core.System, key string) []string {
	path, err := PolicyPath(sys)
	if err != nil {
		return nil
	}
	return itemNames(sys, sys.Paths.Dir(path), key)
}

// itemNames lists the names of dir's rules or skills, for key.
func itemNames(sys *core.System, dir, key string) []string {
	i := slices.IndexFunc(disabledKinds, func(d struct{ key, dir, what string }) bool { return d.key == key })
	if i < 0 {
		return nil
	}
	entries, err := afero.ReadDir(sys.Fs, sys.Paths.Join(dir, disabledKinds[i].dir))
	if err != nil {
		return nil
	}
	var names []string
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		if disabledKinds[i].dir == "rules" {
			if stem, ok := strings.CutSuffix(name, ".md"); ok {
				names = append(names, stem)
			}
			continue
		}
		names = append(names, name)
	}
	return names
}

// PolicyItemError refuses a write that names a policy item in
// rules.disabled or skills.disabled.
type PolicyItemError struct {
	Key    string // rules.disabled or skills.disabled
	Name   string // the item
	Folder string // the policy folder's rules/ or skills/
	what   string
}

// Code is the policy's: the administrator decided.
func (e *PolicyItemError) Code() string { return core.CodeLockedByPolicy }

// Extras names the key, the item and where it lives.
func (e *PolicyItemError) Extras() map[string]any {
	return map[string]any{"key": e.Key, "item": e.Name, "policy": e.Folder}
}

func (e *PolicyItemError) Error() string {
	return fmt.Sprintf("%s: %s is a policy %s (in %s): it is always active and cannot be disabled at any layer; nothing was written (leave it out of %s)",
		e.Key, e.Name, e.what, e.Folder, e.Key)
}

// checkPolicyItems refuses values that disable a policy item. before,
// when not nil, holds the values a file had: a name it already gave is
// not refused again (an edit of a file that names one may change the rest).
// Items of the policy's sources (pol's item dirs) count as the policy's.
func checkPolicyItems(sys *core.System, pol *Policy, values, before map[string]any) error {
	for _, d := range disabledKinds {
		v, ok := values[d.key].([]string)
		if !ok || len(v) == 0 {
			continue
		}
		had, _ := before[d.key].([]string)
		path, _ := PolicyPath(sys)
		dirs := []PolicyItemDir{{Dir: sys.Paths.Dir(path)}}
		if pol != nil {
			dirs = append(dirs, pol.itemDirs...)
		}
		for _, dir := range dirs {
			names := itemNames(sys, dir.Dir, d.key)
			for _, n := range v {
				if slices.Contains(names, n) && !slices.Contains(had, n) {
					folder := sys.Paths.Join(dir.Dir, d.dir)
					if dir.Name != "" {
						folder = dir.Name
					}
					return &PolicyItemError{Key: d.key, Name: n, Folder: folder, what: d.what}
				}
			}
		}
	}
	return nil
}
