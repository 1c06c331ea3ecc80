package session

import (
	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/fsys"
	"github.com/agentkit/charter/core/settings"
	"github.com/agentkit/charter/core/sources"
)

// policyDeclared is what the policy file says of its sources: an
// organisation's mandatory library (SPEC §15). Its items sit just below
// the policy folder's own, above the project, and are always active like
// them. The lock lies beside the policy file; charter writes it only for
// `sources update --policy`, never the policy file itself.
func (s *Session) policyDeclared(pol *settings.Policy) (declared, bool, error) {
	if pol == nil {
		return declared{}, false, nil
	}
	d := declared{Layer: settings.LayerPolicy, Settings: pol.Path,
		LockPath: s.Sys.Paths.Join(s.Sys.Paths.Dir(pol.Path), sources.LockName)}
	seen := map[string]bool{}
	for _, ps := range pol.Sources() {
		dc, err := sources.ParseDecl(ps.Decl)
		if err != nil {
			return declared{}, false, core.Errorf(core.CodeMalformedPolicy, "policy file %s is malformed; fix it by hand (charter reads it but never writes it):\n  %s:%d: %s", pol.Path, pol.Path, ps.Line, s.Sys.ErrorMessage(err))
		}
		if seen[dc.Name] {
			return declared{}, false, core.Errorf(core.CodeMalformedPolicy, "policy file %s is malformed:\n  %s:%d: a second source named %s: give one of them name=NAME after #", pol.Path, pol.Path, ps.Line, dc.Name)
		}
		seen[dc.Name] = true
		d.Decls = append(d.Decls, dc)
	}
	lock, err := sources.ReadLock(s.Sys, "", d.LockPath)
	if err != nil {
		return declared{}, false, err
	}
	d.Lock = lock
	return d, len(d.Decls) > 0 || len(lock.Sources) > 0, nil
}

// withPolicyItems is pol with the pinned trees of its sources recorded as
// policy item folders, so that a write naming one of their rules or
// skills in rules.disabled or skills.disabled is refused.
func (s *Session) withPolicyItems(pol *settings.Policy) (*settings.Policy, error) {
	if len(pol.Sources()) == 0 {
		return pol, nil
	}
	d, _, err := s.policyDeclared(pol)
	if err != nil {
		return nil, err
	}
	cache, err := sources.OpenCache(s.Sys)
	if err != nil {
		return nil, err
	}
	var dirs []settings.PolicyItemDir
	for _, dc := range d.Decls {
		if p, ok := d.Lock.Find(dc.Name); ok && p.Decl.Same(dc) {
			dirs = append(dirs, settings.PolicyItemDir{Dir: cache.TreeDir(p), Name: "policy source " + p.Name + " (" + p.URL + ")"})
		}
	}
	pol.SetItemDirs(dirs)
	return pol, nil
}

// policySourceError refuses to remove a source the policy declares.
func policySourceError(name, policy string) error {
	return core.Errorf(core.CodeLockedByPolicy, "source %s is declared by the policy file %s, an organisation's mandatory library: it cannot be removed here (ask whoever manages that file)", name, policy)
}

// editPolicySources is editSources for the policy: the list is the policy
// file's, which charter never writes (an edit may not change it), and the
// lock beside it is written readable by every user of the machine.
func (s *Session) editPolicySources(confirmShared bool, edit func(list []string, lock *sources.Lock, cache *sources.Cache) ([]string, error)) error {
	pol, err := s.Policy()
	if err != nil {
		return err
	}
	if pol == nil {
		path, _ := settings.PolicyPath(s.Sys)
		return core.Errorf(core.CodeNotFound, "there is no policy file at %s: `sources update --policy` pins the sources a policy file declares (set %s to the policy you are preparing)", path, settings.PolicyVar)
	}
	d, _, err := s.policyDeclared(pol)
	if err != nil {
		return err
	}
	cache, err := sources.OpenCache(s.Sys)
	if err != nil {
		return err
	}
	list := make([]string, 0, len(d.Decls))
	for _, dc := range d.Decls {
		list = append(list, dc.String())
	}
	if list, err = edit(list, d.Lock, cache); err != nil || list == nil {
		return err
	}
	opts := fsys.WriteOptions{ConfirmShared: confirmShared, NewMode: 0o644}
	return s.Sys.UpdateFileOpts(d.LockPath, opts, func([]byte) ([]byte, error) { return d.Lock.Encode(), nil })
}
