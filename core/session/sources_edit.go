package session

import (
	"context"
	"slices"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/gates"
	"github.com/agentkit/charter/core/settings"
	"github.com/agentkit/charter/core/sources"
)

// SourceEntry is one declared source as `charter sources list` shows it.
type SourceEntry struct {
	sources.Decl
	Layer    string `json:"layer"`    // scope or project
	Settings string `json:"settings"` // the file that declares it
	Lock     string `json:"lock"`     // the sources.lock that pins it
	Commit   string `json:"commit"`   // "" : declared, not pinned yet
	Tree     string `json:"tree"`
	Cached   bool   `json:"cached"` // the pinned tree is in the cache, as pinned
	// Latest is the commit the ref had at the last fetch ("" : never
	// fetched here); Update says it differs from the pin. Lists never fetch.
	Latest string `json:"latest"`
	Update bool   `json:"update"`
}

// SourcesList lists every declared source with its pin, reading the cache
// alone: no git, no network.
func (s *Session) SourcesList(ctx context.Context) ([]SourceEntry, error) {
	return s.SourcesListFor(ctx, nil)
}

// SourcesListFor is SourcesList for the settings of scope sc (nil: the
// session's): doctor's resolved one, even when a host root cannot be used.
func (s *Session) SourcesListFor(ctx context.Context, sc *core.Scope) ([]SourceEntry, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ds, err := s.declarations(sc)
	if err != nil {
		return nil, err
	}
	cache, err := sources.OpenCache(s.Sys)
	if err != nil {
		return nil, err
	}
	out := []SourceEntry{}
	for _, d := range ds {
		for _, dc := range d.Decls {
			e := SourceEntry{Decl: dc, Layer: d.Layer, Settings: d.Settings, Lock: d.LockPath, Latest: cache.Latest(dc)}
			if p, ok := d.Lock.Find(dc.Name); ok && p.Decl.Same(dc) {
				e.Commit, e.Tree, e.Cached = p.Commit, p.Tree, cache.Cached(ctx, p)
			}
			e.Update = e.Latest != "" && e.Latest != e.Commit
			out = append(out, e)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err // a Cached cut short says false: no list then
	}
	return out, nil
}

// SourceUpdate is what an add, an update or a remove did to one source.
type SourceUpdate struct {
	Name    string           `json:"name"`
	Layer   string           `json:"layer"`
	URL     string           `json:"url"`
	Ref     string           `json:"ref,omitempty"`
	Path    string           `json:"path,omitempty"`
	From    string           `json:"from"` // the commit pinned before ("" : none)
	To      string           `json:"to"`   // the commit pinned now ("" : dropped)
	Changes []sources.Change `json:"changes"`
}

// SourcesAdd declares d in layer (scope or project), fetches its ref and
// pins it. A project the user trusted stays trusted: adding is the user's
// own choice of what the project takes.
func (s *Session) SourcesAdd(ctx context.Context, layer string, d sources.Decl, confirmShared bool) (SourceUpdate, error) {
	var res SourceUpdate
	err := s.editSources(layer, confirmShared, func(list []string, lock *sources.Lock, cache *sources.Cache) ([]string, error) {
		for _, item := range list {
			if o, err := sources.ParseDecl(item); err == nil && o.Name == d.Name {
				return nil, core.Errorf(core.CodeItemExists, "a source named %s is declared already (%s): remove it first with `charter sources remove %s`, or give this one another --name", d.Name, o.URL, d.Name)
			}
		}
		p, err := cache.Take(ctx, d)
		if err != nil {
			return nil, err
		}
		res, err = s.pinned(ctx, cache, layer, sources.Pin{}, p)
		lock.Set(p)
		return append(list, d.String()), err
	})
	return res, err
}

// SourcesRemove drops the source named name from the layer that declares
// it (layer "" : whichever does, if one alone).
func (s *Session) SourcesRemove(ctx context.Context, layer, name string, confirmShared bool) (SourceUpdate, error) {
	if err := ctx.Err(); err != nil {
		return SourceUpdate{}, err
	}
	layer, err := s.layerOf(layer, name)
	if err != nil {
		return SourceUpdate{}, err
	}
	var res SourceUpdate
	err = s.editSources(layer, confirmShared, func(list []string, lock *sources.Lock, _ *sources.Cache) ([]string, error) {
		list = slices.DeleteFunc(list, func(item string) bool {
			d, err := sources.ParseDecl(item)
			if err == nil && d.Name == name {
				res = SourceUpdate{Name: name, Layer: layer, URL: d.URL, Ref: d.Ref, Path: d.Path, Changes: []sources.Change{}}
				return true
			}
			return false
		})
		if p, ok := lock.Find(name); ok {
			res.From = p.Commit
		}
		lock.Remove(name)
		return list, nil
	})
	return res, err
}

// layerOf finds the layer that declares name when none was given.
func (s *Session) layerOf(layer, name string) (string, error) {
	if layer != "" {
		return layer, nil
	}
	ds, err := s.declarations(nil)
	if err != nil {
		return "", err
	}
	policy := "" // the policy file, when it declares name
	var found []string
	for _, d := range ds {
		if containsDecl(d.Decls, name) && d.Layer != settings.LayerPolicy {
			found = append(found, d.Layer)
		} else if containsDecl(d.Decls, name) {
			policy = d.Settings
		}
	}
	if len(found) == 0 && policy != "" {
		return "", policySourceError(name, policy)
	}
	switch len(found) {
	case 0:
		return "", core.Errorf(core.CodeNotFound, "no source named %s is declared here: `charter sources list` shows them", name)
	case 1:
		return found[0], nil
	}
	return "", core.Errorf(core.CodeUsage, "both your scope and the project declare a source named %s: give --global or --project", name)
}

// SourcesUpdate moves each declared source of the selected layers (""
// : both) to its ref's current commit, or only the one named name, and
// drops pins no longer declared. With dryRun it fetches and lists what
// would change, and writes nothing.
func (s *Session) SourcesUpdate(ctx context.Context, layer, name string, dryRun, confirmShared bool) ([]SourceUpdate, error) {
	layers := sourceLayers
	if layer == settings.LayerPolicy {
		layers = []string{layer}
	} else if name != "" || layer != "" {
		l, err := s.layerOf(layer, name)
		if err != nil && name != "" {
			return nil, err
		}
		layers = []string{l}
	}
	out := []SourceUpdate{}
	for _, l := range layers {
		if l == settings.LayerProject {
			if p, err := s.Project(); err != nil || p == nil {
				if layer == "" {
					continue
				}
				return nil, orNoProject(err)
			}
		}
		err := s.editSources(l, confirmShared, func(list []string, lock *sources.Lock, cache *sources.Cache) ([]string, error) {
			next := &sources.Lock{}
			for _, item := range list {
				d, err := sources.ParseDecl(item)
				if err != nil {
					return nil, err
				}
				old, had := lock.Find(d.Name)
				if name != "" && d.Name != name {
					if had {
						next.Set(old)
					}
					continue
				}
				p, err := cache.Take(ctx, d)
				if err != nil {
					return nil, err
				}
				if !had || !old.Decl.Same(d) {
					old = sources.Pin{}
				}
				res, err := s.pinned(ctx, cache, l, old, p)
				if err != nil {
					return nil, err
				}
				if res.From != res.To || len(res.Changes) > 0 || !had {
					out = append(out, res)
				}
				next.Set(p)
			}
			for _, p := range lock.Sources {
				switch _, ok := next.Find(p.Name); {
				case ok:
				case name != "" && p.Name != name:
					next.Set(p) // another source's stale pin: left for its own update
				default:
					out = append(out, SourceUpdate{Name: p.Name, Layer: l, URL: p.URL, Ref: p.Ref, Path: p.Path, From: p.Commit, Changes: []sources.Change{}})
				}
			}
			if dryRun {
				return nil, nil
			}
			lock.Sources = next.Sources
			return list, nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// pinned reports the move from old to p, with the items it changes.
func (s *Session) pinned(ctx context.Context, cache *sources.Cache, layer string, old, p sources.Pin) (SourceUpdate, error) {
	res := SourceUpdate{Name: p.Name, Layer: layer, URL: p.URL, Ref: p.Ref, Path: p.Path, From: old.Commit, To: p.Commit}
	oldDir := ""
	if old.Commit != "" {
		var err error
		if oldDir, err = cache.Ensure(ctx, old); err != nil {
			oldDir = "" // the old tree is gone: every item reads as added
		}
	}
	changes, err := cache.Diff(ctx, oldDir, cache.TreeDir(p))
	if changes == nil {
		changes = []sources.Change{}
	}
	res.Changes = changes
	return res, err
}

// editSources runs edit on layer's `sources` list and lock, then writes
// both (edit returning a nil list: nothing written). The lock is written
// after the settings file, each atomically. A project trusted before
// stays trusted with its new pins: the user chose them here.
func (s *Session) editSources(layer string, confirmShared bool, edit func(list []string, lock *sources.Lock, cache *sources.Cache) ([]string, error)) error {
	if layer == settings.LayerPolicy {
		return s.editPolicySources(confirmShared, edit)
	}
	t, err := s.Target(layer)
	if err != nil {
		return err
	}
	st := t.Store()
	sets, err := st.LayerSets()
	if err != nil {
		return err
	}
	var list []string
	for _, ls := range sets {
		if ls.Name == layer {
			list, _ = ls.Values[settings.KeySources].([]string)
		}
	}
	opts := st.WriteOptions(confirmShared)
	lockPath := s.Sys.Paths.Join(s.Sys.Paths.Dir(t.Path()), sources.LockName)
	lock, err := sources.ReadLock(s.Sys, opts.Within, lockPath)
	if err != nil {
		return err
	}
	cache, err := sources.OpenCache(s.Sys)
	if err != nil {
		return err
	}
	wasTrusted := s.projectTrusted(layer)
	before := slices.Clone(list)
	list, err = edit(slices.Clone(list), lock, cache)
	if err != nil || list == nil {
		return err
	}
	if !slices.Equal(before, list) {
		if _, err := t.Write(settings.Update{Set: map[string]any{settings.KeySources: list}, ConfirmShared: confirmShared}); err != nil {
			return err
		}
	}
	if err := s.Sys.UpdateFileOpts(lockPath, opts, func([]byte) ([]byte, error) { return lock.Encode(), nil }); err != nil {
		return err
	}
	if wasTrusted {
		return s.retrust(confirmShared)
	}
	return nil
}

// projectTrusted reports whether layer is the project's and the project
// is trusted now (or needs no trust).
func (s *Session) projectTrusted(layer string) bool {
	if layer != settings.LayerProject {
		return false
	}
	_, snap, err := s.Read()
	if err != nil {
		return false
	}
	if snap.Project == nil {
		return true // the add makes the project: nothing in it was untrusted
	}
	t, err := gates.TrustOf(s.Sys, snap)
	return err == nil && t.Trusted()
}

// retrust records the project's trust for its values as they are now.
func (s *Session) retrust(confirmShared bool) error {
	_, snap, err := s.Read()
	if err != nil {
		return err
	}
	t, err := gates.TrustOf(s.Sys, snap)
	if err != nil || t.State != gates.TrustUntrusted {
		return err
	}
	_, err = gates.TrustProject(s.Sys, snap, t.SHA256, nil, confirmShared)
	return err
}
