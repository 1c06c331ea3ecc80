package session

import (
	"context"
	"slices"
	"strings"
	"sync"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/agents"
	"github.com/agentkit/charter/core/content"
	"github.com/agentkit/charter/core/loaded"
	"github.com/agentkit/charter/core/projection"
	"github.com/agentkit/charter/core/settings"
)

// ContentItem is one entry of the effective set as `charter rules list
// --json` shows it, with the agents that get it.
type ContentItem struct {
	content.Entry
	// ReceivedBy names the agents that get the item at its level while it
	// is active (none while it is disabled or below the tier).
	ReceivedBy []string `json:"receivedBy"`
	// Loaded is what the agents reported loading of it (the hub's content
	// doc only): set for a rule Claude gets at its level, whose
	// InstructionsLoaded hook reports it; nil where no agent reports
	// loading (every other item).
	Loaded *loaded.Status `json:"loaded,omitempty"`
	// FilesState is the state the files of the item's level get (the
	// hub's content doc only): that level's layers alone decide it (SPEC
	// §12 "Levels"), so neither the personal project-local file nor, for
	// a user item, the project's settings change it, where they do change
	// State, what charter shows and answers here.
	FilesState string `json:"filesState,omitempty"`
}

// ContentBody is one item with its body and a skill's other files, as
// `charter rules show NAME --json` shows it.
type ContentBody struct {
	ContentItem
	Files []string `json:"files,omitempty"`
	Body  string   `json:"body"`
}

// DisabledAt is what one writable layer's file says of rules.disabled
// and skills.disabled, with the file's own ETag: a toggle edits that
// layer's list and sends the ETag as If-Match.
type DisabledAt struct {
	Layer  string   `json:"layer"`
	Path   string   `json:"path"`
	Exists bool     `json:"exists"`
	ETag   string   `json:"etag"`
	Rules  []string `json:"rules"`
	Skills []string `json:"skills"`
	// Set tells whether the file sets each key at all (a layer above one
	// that sets it decides the effective list).
	SetsRules  bool `json:"setsRules"`
	SetsSkills bool `json:"setsSkills"`
}

// ContentDoc is every item in effect here with what a toggle needs.
type ContentDoc struct {
	Items []ContentItem `json:"items"`
	// Layers are the writable layers, lowest first, with their lists.
	Layers []DisabledAt `json:"layers"`
	// Policy is the policy file whose folder holds the policy items.
	Policy string `json:"policy"`
}

// Contents is the effective set for this directory at both levels (what
// `rules list` and friends show), every kind, each with its receivers.
func (s *Session) Contents(ctx context.Context) (ContentDoc, error) {
	lib, sel, err := s.Library(ctx)
	if err != nil {
		return ContentDoc{}, err
	}
	doc := ContentDoc{Items: []ContentItem{}, Layers: []DisabledAt{}}
	view, err := s.Loaded(ctx)
	if err != nil {
		return ContentDoc{}, err
	}
	files, err := s.levelStates(ctx, lib)
	if err != nil {
		return ContentDoc{}, err
	}
	names := s.Sys.AgentTable.All()
	for _, e := range lib.Effective("", sel) {
		here := e.State
		if st, ok := files[e.Level+"\x00"+e.Key()]; ok {
			e.State = st
		}
		ci := s.contentItem(names, e) // the agents that get it in their files
		ci.State, ci.FilesState = here, e.State
		if e.Kind == content.KindRule && slices.Contains(projection.Receivers(names, e.Level, &e.Item), loadedReporter) {
			st := view.Of(string(e.Kind), e.Name)
			ci.Loaded = &st
		}
		doc.Items = append(doc.Items, ci)
	}
	st, err := s.Store()
	if err != nil {
		return ContentDoc{}, err
	}
	sets, err := st.LayerSets()
	if err != nil {
		return ContentDoc{}, err
	}
	for _, ls := range sets {
		rules, setsRules := ls.Values[settings.KeyRulesDisabled].([]string)
		skills, setsSkills := ls.Values[settings.KeySkillsDisabled].([]string)
		doc.Layers = append(doc.Layers, DisabledAt{Layer: ls.Name, Path: ls.Path, Exists: ls.Exists, ETag: ls.ETag,
			Rules: orEmpty(rules), Skills: orEmpty(skills), SetsRules: setsRules, SetsSkills: setsSkills})
	}
	doc.Policy, _ = settings.PolicyPath(s.Sys)
	return doc, nil
}

// levelStates is the state of every item at each level as the layers
// that render that level's files select it (ApplySettings), by level and
// key.
func (s *Session) levelStates(ctx context.Context, lib *content.Library) (map[string]string, error) {
	out := map[string]string{}
	for _, level := range []string{content.LevelUser, content.LevelProject} {
		snap, err := s.ApplySettings(ctx, level == content.LevelProject)
		if err != nil {
			return nil, err
		}
		for _, e := range lib.Effective(level, content.SelectionOf(snap.Values)) {
			out[level+"\x00"+e.Key()] = e.State
		}
	}
	return out, nil
}

func orEmpty(v []string) []string {
	if v == nil {
		return []string{}
	}
	return v
}

func (s *Session) contentItem(names []agents.Agent, e content.Entry) ContentItem {
	ci := ContentItem{Entry: e, ReceivedBy: []string{}}
	if !e.Active() {
		return ci
	}
	// The receivers depend on the level, the kind and a rule's agents
	// alone: a library of a thousand rules has a handful of shapes.
	key := e.Level + "\x00" + string(e.Kind) + "\x00" + strings.Join(e.Agents, "\x00")
	s.mu.Lock()
	defer s.mu.Unlock()
	if r, ok := s.receivers[key]; ok {
		ci.ReceivedBy = r
		return ci
	}
	if s.receivers == nil {
		s.receivers = map[string][]string{}
	}
	ci.ReceivedBy = projection.Receivers(names, e.Level, &e.Item)
	s.receivers[key] = ci.ReceivedBy
	return ci
}

// ContentList is one kind's items in effect here; with path (project-
// relative, or absolute inside the project) only the rules in effect
// (active or policy) whose globs match it, and those without globs.
func (s *Session) ContentList(ctx context.Context, k content.Kind, path string) ([]ContentItem, error) {
	lib, sel, err := s.Library(ctx)
	if err != nil {
		return nil, err
	}
	if s.opts.Lists == nil || path != "" {
		return s.contentList(lib, sel, k, path)
	}
	return s.opts.Lists.get(lib, sel, k, func() ([]ContentItem, error) { return s.contentList(lib, sel, k, "") })
}

// KeptLists keeps each kind's whole list (ContentList without a path)
// while the library is the same one (a content.Cache hands out the same
// while nothing under it changed) and so is the selection: the effective
// set of a thousand items, a few hundred bytes each, was most of an MCP
// list call's work and garbage. A kept list is shared: callers only read
// it. The agent table is the System's, which a server keeps.
type KeptLists struct {
	mu    sync.Mutex
	lists map[content.Kind]keptList
}

// keptList holds its library, so that address is not reused meanwhile.
type keptList struct {
	lib   *content.Library
	sel   string // the tier and the disabled lists
	items []ContentItem
}

func (kl *KeptLists) get(lib *content.Library, sel content.Selection, k content.Kind, build func() ([]ContentItem, error)) ([]ContentItem, error) {
	key := sel.Tier + "\x00" + strings.Join(sel.RulesDisabled, "\x01") + "\x00" + strings.Join(sel.SkillsDisabled, "\x01")
	kl.mu.Lock()
	kept, ok := kl.lists[k]
	kl.mu.Unlock()
	if ok && kept.lib == lib && kept.sel == key {
		return kept.items, nil
	}
	items, err := build()
	if err != nil {
		return nil, err
	}
	kl.mu.Lock()
	defer kl.mu.Unlock()
	if kl.lists == nil {
		kl.lists = map[content.Kind]keptList{}
	}
	kl.lists[k] = keptList{lib, key, items}
	return items, nil
}

func (s *Session) contentList(lib *content.Library, sel content.Selection, k content.Kind, path string) ([]ContentItem, error) {
	var err error
	rel := ""
	if path != "" {
		if rel, err = s.projectRel(path); err != nil {
			return nil, err
		}
	}
	names := s.Sys.AgentTable.All()
	all := lib.Effective("", sel)
	out := make([]ContentItem, 0, len(all))
	for _, e := range all {
		if e.Kind != k || (path != "" && (!e.Active() || !e.AppliesTo(rel))) {
			continue
		}
		out = append(out, s.contentItem(names, e))
	}
	return out, nil
}

// ContentShow is one item in effect here with its body; not_found names
// the command that lists them.
func (s *Session) ContentShow(ctx context.Context, k content.Kind, name string) (ContentBody, error) {
	lib, sel, err := s.Library(ctx)
	if err != nil {
		return ContentBody{}, err
	}
	e, ok := lib.Find("", sel, k, name)
	if !ok {
		group := k.Dir()
		if k == content.KindSubagent {
			group = "subagents"
		}
		return ContentBody{}, core.Errorf(core.CodeNotFound, "there is no %s named %q: `charter %s list` shows them, `charter %s new %s` makes one", k, name, group, group, name)
	}
	doc := ContentBody{ContentItem: s.contentItem(s.Sys.AgentTable.All(), e), Body: string(e.Body)}
	for _, f := range e.Files {
		doc.Files = append(doc.Files, f.Rel)
	}
	return doc, nil
}

// projectRel turns a path an agent names into the slash-separated path
// relative to the project root (the directory the gates run in). It is the
// one confinement of such a path, whichever skin it came through: a
// relative path is taken from the root (the CLI makes it absolute from the
// working directory first), and the path must lie inside the root both as
// spelled and where the links on its way lead (core.Confine), else
// outside_project.
func (s *Session) projectRel(path string) (string, error) {
	root, err := s.GateDir()
	if err != nil {
		return "", err
	}
	root = s.Sys.Paths.Clean(root)
	abs := path
	if !s.Sys.Paths.IsAbs(abs) {
		abs = s.Sys.Paths.Join(root, path)
	}
	abs = s.Sys.Paths.Clean(abs)
	segs, ok := s.Sys.Paths.Within(root, abs)
	if !ok {
		return "", core.Errorf(core.CodeOutsideProject, "%s is not inside the project %s: give a path relative to the project root, or an absolute one inside it", path, root)
	}
	if err := s.Sys.Confine(root, abs); err != nil {
		return "", err
	}
	return strings.Join(segs, "/"), nil
}
