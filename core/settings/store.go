package settings

// The store and its layers: which files a scope, a project and the policy
// contribute, lowest first. Reading and merging them is in store_read.go,
// the write transaction in store_write.go, the YAML edit in store_edit.go.

import (
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/fsys"
)

// FileName is the settings file in a scope directory.
const FileName = "settings.yaml"

// OriginDefault marks a value that no file sets.
const OriginDefault = "default"

// MaxFileSize caps a settings file. A larger one is refused before it is
// parsed, on reads and writes alike: hand-written settings are a few KiB,
// while a write of a 1 MiB file already costs the YAML library about
// 450 MB of allocations (BenchmarkWriteLargeFile), and 4 MiB four times that.
const MaxFileSize = 1 << 20 // fsys.KindSettings.Max()

// Layer names, lowest first, as the HTTP API spells them (SPEC §9).
const (
	LayerDefault      = "default"
	LayerGlobal       = "global"
	LayerScope        = "scope"
	LayerProject      = "project"
	LayerProjectLocal = "projectLocal"
	LayerPolicy       = "policy"
)

// LayerNames lists every layer, lowest first.
func LayerNames() []string {
	return []string{LayerDefault, LayerGlobal, LayerScope, LayerProject, LayerProjectLocal, LayerPolicy}
}

// WritableLayers are the layers a write may target; scope is the default.
func WritableLayers() []string { return []string{LayerScope, LayerProject, LayerProjectLocal} }

// Store reads and writes the settings of one scope, with the project and
// policy layers when it was opened with them.
type Store struct {
	sys     *core.System
	scope   core.Scope
	project *core.Project // nil: no project layers
	policy  *Policy       // nil: no policy
	target  string        // the layer writes go to
	header  []byte        // what a file this store creates starts with (WithHeader)
	// committed reads only the layers that travel with the repository
	// (defaults, project, policy): see Committed.
	committed bool
}

// New returns the store of scope sc alone: no project, no policy.
func New(sys *core.System, sc core.Scope) *Store {
	return &Store{sys: sys, scope: sc, target: LayerScope}
}

// Open returns the layered store: scope sc, the project (nil for none) and
// the policy (nil for none). Writes go to the scope file until Target
// chooses another layer.
func Open(sys *core.System, sc core.Scope, project *core.Project, policy *Policy) *Store {
	return &Store{sys: sys, scope: sc, project: project, policy: policy, target: LayerScope}
}

// Project is the project the store reads, nil when none.
func (st *Store) Project() *core.Project { return st.project }

// Policy is the policy the store applies, nil when none.
func (st *Store) Policy() *Policy { return st.policy }

// Target returns a store that writes to layer (scope, project or
// projectLocal). The project layers need a project.
func (st *Store) Target(layer string) (*Store, error) {
	switch layer {
	case "", LayerScope:
		layer = LayerScope
	case LayerProject, LayerProjectLocal:
		if st.project == nil {
			return nil, core.Errorf(core.CodeUsage, "there is no project to write to: create one with `charter settings set KEY VALUE --project` inside a git repository, or give --project-dir DIR")
		}
	default:
		return nil, core.Errorf(core.CodeInvalidRequest, "unknown layer %q: use one of %s", layer, strings.Join(WritableLayers(), ", "))
	}
	c := *st
	c.target = layer
	return &c, nil
}

// WriteOptions are the options of every write of the target layer's file,
// the store's own and `settings edit`'s alike, so the two never differ: the
// scope file is charter's own under the config root (0600 after every
// write, whatever mode an older file had), a project file the team's (a
// new one ProjectFileMode, an existing one keeps its mode).
func (st *Store) WriteOptions(confirmShared bool) fsys.WriteOptions {
	if st.target == LayerScope {
		return fsys.WriteOptions{ConfirmShared: confirmShared, Owned: true}
	}
	return fsys.WriteOptions{ConfirmShared: confirmShared, NewMode: ProjectFileMode, Within: st.project.Dir}
}

// within is the project root a layer file must resolve inside: a project
// file is the repository's, and a link in it may not lead out (code
// outside_project). "" for the user's own files.
func (st *Store) within(path string) string {
	if st.project != nil && (path == st.project.SettingsPath() || path == st.project.LocalPath()) {
		return st.project.Dir
	}
	return ""
}

// WithHeader returns a store whose writes start a file they create with
// header (the schema comment of a new scope file); a file that exists is
// never given one.
func (st *Store) WithHeader(header string) *Store {
	c := *st
	c.header = []byte(header)
	return &c
}

// Committed returns a store that reads only the layers committed with the
// project, defaults, the project's settings.yaml and the policy, never the
// user's global or scope file nor the personal project-local one: what
// `apply --project` renders into committed files must be the same bytes
// whoever applies (SPEC §12 pinned details, "Levels").
func (st *Store) Committed() *Store {
	c := *st
	c.committed = true
	return &c
}

// TargetLayer names the layer writes go to.
func (st *Store) TargetLayer() string { return st.target }

// Path is the file writes go to: the scope file unless Target chose a
// project layer.
func (st *Store) Path() string {
	switch st.target {
	case LayerProject:
		return st.project.SettingsPath()
	case LayerProjectLocal:
		return st.project.LocalPath()
	}
	return st.ScopePath()
}

// ScopePath is the scope's settings file.
func (st *Store) ScopePath() string { return st.sys.Paths.Join(st.scope.Path, FileName) }

// globalPath is the root's file, read under a profile's own only when the
// profile lives under the default root; "" otherwise.
func (st *Store) globalPath() string {
	if st.scope.Kind == core.ScopeProfile {
		return st.sys.Paths.Join(st.scope.Root.Path, FileName)
	}
	return ""
}

// fileLayer is one layer that has a file in this store.
type fileLayer struct{ name, path string }

// fileLayers lists the layer files read, lowest first.
func (st *Store) fileLayers() []fileLayer {
	ls := make([]fileLayer, 0, 4)
	if st.committed {
		if st.project != nil {
			ls = append(ls, fileLayer{LayerProject, st.project.SettingsPath()})
		}
		return ls
	}
	if g := st.globalPath(); g != "" {
		ls = append(ls, fileLayer{LayerGlobal, g})
	}
	ls = append(ls, fileLayer{LayerScope, st.ScopePath()})
	if st.project != nil {
		ls = append(ls, fileLayer{LayerProject, st.project.SettingsPath()}, fileLayer{LayerProjectLocal, st.project.LocalPath()})
	}
	return ls
}

// layers lists the files read, lowest first.
func (st *Store) layers() []string {
	fl := st.fileLayers()
	out := make([]string, len(fl))
	for i, l := range fl {
		out[i] = l.path
	}
	return out
}

// LayerOf names the layer an origin belongs to: default, policy or the
// layer whose file it is ("" for none of them).
func (st *Store) LayerOf(origin string) string {
	if origin == OriginDefault {
		return LayerDefault
	}
	if st.policy != nil && origin == st.policy.Path {
		return LayerPolicy
	}
	for _, l := range st.fileLayers() {
		if l.path == origin {
			return l.name
		}
	}
	return ""
}

// Files lists every file Read reads, lowest layer first: a cache of the
// snapshot stays valid while none of them changes.
func (st *Store) Files() []string { return st.layers() }
