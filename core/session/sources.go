package session

import (
	"context"
	"fmt"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/content"
	"github.com/agentkit/charter/core/gates"
	"github.com/agentkit/charter/core/settings"
	"github.com/agentkit/charter/core/sources"
)

// sourceLayers are the layers whose sources a user declares (SPEC §15):
// the scope's settings and the project's committed ones. The personal
// project-local file declares none: what it took would reach no teammate.
// The policy file declares its own (sources_policy.go).
var sourceLayers = []string{settings.LayerScope, settings.LayerProject}

// declared is what one layer says of its sources: its `sources` list and
// its sources.lock.
type declared struct {
	Layer    string
	Level    string // content level of its items ("" : both, the policy's)
	Settings string // the settings file that holds the list
	LockPath string
	Within   string // the project root for the project's lock, else ""
	Decls    []sources.Decl
	Lock     *sources.Lock
}

// declarations reads every layer that may declare sources, lowest first,
// for scope sc (nil: the session's).
func (s *Session) declarations(sc *core.Scope) ([]declared, error) {
	st, err := s.Store()
	if sc != nil {
		// The scope the settings were read for: doctor's resolved one,
		// even when a host root cannot be used yet.
		var p *core.Project
		var pol *settings.Policy
		if p, err = s.layersProject(); err == nil {
			pol, err = s.Policy()
		}
		st = settings.Open(s.Sys, *sc, p, pol)
	}
	if err != nil {
		return nil, err
	}
	sets, err := st.LayerSets()
	if err != nil {
		return nil, err
	}
	var out []declared
	for _, ls := range sets {
		if ls.Name != settings.LayerScope && ls.Name != settings.LayerProject {
			continue
		}
		d := declared{Layer: ls.Name, Level: content.LevelUser, Settings: ls.Path,
			LockPath: s.Sys.Paths.Join(s.Sys.Paths.Dir(ls.Path), sources.LockName)}
		if ls.Name == settings.LayerProject {
			d.Level, d.Within = content.LevelProject, st.Project().Dir
		}
		list, _ := ls.Values[settings.KeySources].([]string)
		seen := map[string]bool{}
		for _, item := range list {
			dc, err := sources.ParseDecl(item)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", ls.Path, err)
			}
			if seen[dc.Name] {
				return nil, core.Errorf(core.CodeInvalidValue, "%s declares two sources named %s: give one of them name=NAME after #", ls.Path, dc.Name)
			}
			seen[dc.Name] = true
			d.Decls = append(d.Decls, dc)
		}
		if d.Lock, err = sources.ReadLock(s.Sys, d.Within, d.LockPath); err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	if d, ok, err := s.policyDeclared(st.Policy()); err != nil || ok {
		return append(out, d), err
	}
	return out, nil
}

// pins are the layer's pins for its declarations, each checked against
// the lock: a source declared and not pinned, pinned and no longer
// declared, or pinned for another URL, ref or path is an error that names
// `charter sources update`.
func (d declared) pins() ([]sources.Pin, error) {
	var out []sources.Pin
	for _, dc := range d.Decls {
		p, ok := d.Lock.Find(dc.Name)
		switch {
		case !ok && d.Layer == settings.LayerPolicy:
			return nil, core.Errorf(core.CodeOutdated, "source %s is declared by the policy file %s but not pinned in %s: whoever manages the policy runs `charter sources update --policy %s` to pin it", dc.Name, d.Settings, d.LockPath, dc.Name)
		case !ok:
			return nil, core.Errorf(core.CodeOutdated, "source %s is declared in %s but not pinned in %s: run `charter sources update %s` to pin it", dc.Name, d.Settings, d.LockPath, dc.Name)
		case !p.Decl.Same(dc):
			return nil, core.Errorf(core.CodeOutdated, "source %s in %s is no longer the one %s pins (%s): run `charter sources update %s` to pin what is declared", dc.Name, d.Settings, d.LockPath, p.Decl.String(), dc.Name)
		}
		out = append(out, p)
	}
	for _, p := range d.Lock.Sources {
		if !containsDecl(d.Decls, p.Name) {
			return nil, core.Errorf(core.CodeOutdated, "%s pins source %s, which %s no longer declares: run `charter sources update` to drop it", d.LockPath, p.Name, d.Settings)
		}
	}
	return out, nil
}

func containsDecl(ds []sources.Decl, name string) bool {
	for _, d := range ds {
		if d.Name == name {
			return true
		}
	}
	return false
}

// withSources puts each source's pinned tree just below the layer that
// declares it. level limits it to the layers whose items that level
// projects ("" : every one). forApply: a project's sources in an
// untrusted project, or a tree the cache lacks where this session may not
// fetch, are errors; for a list they are left out with a warning.
func (s *Session) withSources(ctx context.Context, sc core.Scope, layers []content.Layer, level string, forApply bool) ([]content.Layer, error) {
	ds, err := s.declarations(&sc)
	if err != nil || len(ds) == 0 {
		return layers, err
	}
	byLayer := map[string]declared{}
	for _, d := range ds {
		if len(d.Decls) > 0 || len(d.Lock.Sources) > 0 {
			byLayer[d.Layer] = d
		}
	}
	if len(byLayer) == 0 {
		return layers, nil
	}
	cache, err := sources.OpenCache(s.Sys)
	if err != nil {
		return nil, err
	}
	var out []content.Layer
	for _, ly := range layers {
		d, ok := byLayer[ly.Name]
		if !ok || (level != "" && d.Level != "" && d.Level != level) {
			out = append(out, ly)
			continue
		}
		pins, err := d.pins()
		if err != nil {
			return nil, err
		}
		if d.Layer == settings.LayerProject && len(pins) > 0 {
			if err := s.trustedSources(pins); err != nil {
				if forApply {
					return nil, err
				}
				s.warnSources(err.Error())
				out = append(out, ly)
				continue
			}
		}
		for _, p := range pins {
			var dir string
			if s.opts.FetchSources {
				dir, err = cache.Ensure(ctx, p)
			} else if dir = cache.TreeDir(p); !cache.Cached(ctx, p) {
				err = core.Errorf(core.CodeNotFound, "source %s (%s) at %s is %w: run `charter sources update %s` or `charter apply` on the command line to fetch it", p.Name, p.URL, p.Commit, sources.ErrNotCached, p.Name)
			}
			if cerr := ctx.Err(); cerr != nil {
				return nil, cerr // not "not cached": the request is gone
			}
			if err != nil {
				if forApply {
					return nil, err
				}
				s.warnSources(s.Sys.ErrorMessage(err))
				continue
			}
			out = append(out, content.Layer{Name: ly.Name, Dir: dir, Level: ly.Level, Within: dir,
				Source: &content.SourceRef{Name: p.Name, URL: p.URL, Commit: p.Commit, Path: p.Path}})
		}
		out = append(out, ly)
	}
	return out, nil
}

// trustedSources is nil when the project's pinned sources may be fetched
// and read: the user trusted the project with exactly these pins.
func (s *Session) trustedSources(pins []sources.Pin) error {
	_, snap, err := s.Read()
	if err != nil {
		return err
	}
	t, err := gates.TrustOf(s.Sys, snap)
	if err != nil || t.Trusted() {
		return err
	}
	names := ""
	for i, p := range pins {
		if i > 0 {
			names += ", "
		}
		names += p.Name + " (" + p.URL + " at " + p.Commit[:12] + ")"
	}
	return core.Errorf(core.CodeUntrusted, "the project takes shared sources %s, and charter fetches or reads a repository's sources only once you trust the project: review them in .charter/sources.lock, then run `%s`", names, t.Command)
}

func (s *Session) warnSources(msg string) {
	if s.Sys.Warn != nil {
		s.Sys.Warn(msg + " (its items are left out of this list)")
		return
	}
	s.warn(msg)
}

// WithoutFetch is this session reading shared sources from the cache
// alone: doctor reports a missing tree instead of fetching it.
func (s *Session) WithoutFetch() *Session {
	o := s.opts
	o.FetchSources = false
	return New(s.Sys, o)
}
