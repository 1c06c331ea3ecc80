package settings

import "slices"

// LayerSet is what one writable layer's file sets itself (not the
// effective values), read with the file's own ETag: a client that edits a
// list key at that layer (the hub's rules.disabled toggle) starts from
// the layer's list and sends the ETag as If-Match.
type LayerSet struct {
	Name   string
	Path   string
	Exists bool
	ETag   string
	Values map[string]any
}

// LayerSets reads the writable layers' files of this store (scope, and
// with a project its shared and personal files), lowest first.
func (st *Store) LayerSets() ([]LayerSet, error) {
	var out []LayerSet
	for _, fl := range st.fileLayers() {
		if !slices.Contains(WritableLayers(), fl.name) {
			continue
		}
		l, err := st.readFile(fl.path)
		if err != nil {
			return nil, err
		}
		set := LayerSet{Name: fl.name, Path: fl.path, Exists: l.exists, ETag: etag([]*layer{l}), Values: map[string]any{}}
		for _, v := range l.values {
			set.Values[v.key] = v.v
		}
		out = append(out, set)
	}
	return out, nil
}
