package session

import (
	"context"
	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/apply"
	"github.com/agentkit/charter/core/content"
	"github.com/agentkit/charter/core/fsys"
	"github.com/agentkit/charter/core/settings"
)

// Library reads every content source this run sees (SPEC §12): the
// global and scope folders, the project's .charter/ and the policy's
// folder, with the selection the effective settings make. It is what
// lists and shows read: a skill's other files are named, not read
// (content.LoadNames), so listing a large library holds only its sources.
func (s *Session) Library(ctx context.Context) (*content.Library, content.Selection, error) {
	st, snap, err := s.Read()
	if err != nil {
		return nil, content.Selection{}, err
	}
	policy, err := settings.PolicyPath(s.Sys)
	if err != nil {
		return nil, content.Selection{}, err
	}
	layers, err := s.withSources(ctx, snap.Scope, content.Sources(s.Sys, snap.Scope, st.Project(), policy), "", false)
	if err != nil {
		return nil, content.Selection{}, err
	}
	load := content.LoadLayerNames
	if s.opts.LoadLibrary != nil {
		load = s.opts.LoadLibrary
	}
	lib, err := load(ctx, s.Sys, layers)
	return lib, content.SelectionOf(snap.Values), err
}

// load reads the sources apply projects at proj's level (nil: user level).
func (s *Session) load(ctx context.Context, snap *settings.Snapshot, proj *core.Project) (*content.Library, error) {
	policy, err := settings.PolicyPath(s.Sys)
	if err != nil {
		return nil, err
	}
	level := content.LevelUser
	if proj != nil {
		level = content.LevelProject
	}
	layers, err := s.withSources(ctx, snap.Scope, content.Sources(s.Sys, snap.Scope, proj, policy), level, true)
	if err != nil {
		return nil, err
	}
	return content.LoadLayers(ctx, s.Sys, layers)
}

// activeItems are the items apply projects at proj's level, selected by
// snap: the settings that level renders with.
func (s *Session) activeItems(ctx context.Context, snap *settings.Snapshot, proj *core.Project) ([]content.Item, error) {
	lib, err := s.load(ctx, snap, proj)
	if err != nil {
		return nil, err
	}
	level := content.LevelUser
	if proj != nil {
		level = content.LevelProject
	}
	entries := lib.ActiveItems(level, content.SelectionOf(snap.Values))
	items := make([]content.Item, len(entries))
	for i, e := range entries {
		items[i] = e.Item
	}
	return items, nil
}

// SourceDir is where a new item's source goes: the scope's folder, or
// with project the project's .charter/ (created at the repository root
// when there is no project yet), with the options its writes take.
func (s *Session) SourceDir(project bool) (string, fsys.WriteOptions, error) {
	if !project {
		sc, err := s.Scope()
		return sc.Path, fsys.WriteOptions{}, err
	}
	if s.opts.NoProject {
		return "", fsys.WriteOptions{}, core.Errorf(core.CodeUsage, "--project writes into the project, but --no-project turns the project off: give one of them")
	}
	p, err := s.Project()
	if err != nil {
		return "", fsys.WriteOptions{}, err
	}
	root := ""
	if p != nil {
		root = p.Dir
	} else if root, err = s.CreateRoot(); err != nil {
		return "", fsys.WriteOptions{}, err
	}
	return s.Sys.Paths.Join(root, core.ProjectDirName), fsys.WriteOptions{NewMode: settings.ProjectFileMode, Within: root, Whole: true}, nil
}

// NewSource scaffolds a new item's source (content.Scaffold) in the
// scope's folder or, with project, the project's .charter/, never over an
// existing file (code item_exists), and returns its path. Creating content
// makes the project (SPEC §12 decisions of 2026-11-27): a repository that
// is no charter project yet gets its empty settings file too, so that the
// next `apply --project` finds it.
func (s *Session) NewSource(ctx context.Context, k content.Kind, name string, project bool) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	if msg := content.CheckName(name); msg != "" {
		return "", core.Errorf(core.CodeUsage, "%s", msg)
	}
	base, opts, err := s.SourceDir(project)
	if err != nil {
		return "", err
	}
	path := s.Sys.Paths.Join(base, k.Dir(), name+".md")
	if k == content.KindSkill {
		path = s.Sys.Paths.Join(base, k.Dir(), name, content.SkillFile)
	}
	err = s.Sys.UpdateFileOpts(path, opts, func(old []byte) ([]byte, error) {
		if old != nil {
			return nil, core.Errorf(core.CodeItemExists, "%s already exists: charter never overwrites a source; edit it, or choose another name", path)
		}
		return content.Scaffold(k, name), nil
	})
	if err == nil && project {
		err = s.ensureProject("charter " + k.Dir() + " new")
	}
	return path, err
}

// ActiveLibrary is what a block rendered for no agent in particular says
// about content (MCP's charter://governance): how many rules and skills
// are active here, at both levels, without a place.
func (s *Session) ActiveLibrary(ctx context.Context) (apply.Library, error) {
	lib, sel, err := s.Library(ctx)
	if err != nil {
		return apply.Library{}, err
	}
	var out apply.Library
	for _, e := range lib.ActiveItems("", sel) {
		switch e.Kind {
		case content.KindRule:
			out.Rules++
		case content.KindSkill:
			out.Skills++
		}
	}
	return out, nil
}

// ContentKinds is every kind of content, in the order the skins list them:
// the CLI's commands, the HTTP routes and MCP's tools.
func ContentKinds() []content.Kind { return content.Kinds() }
