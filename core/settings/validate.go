package settings

// Validate checks data as the content of the settings file at path, the
// way a read checks it, without touching any file: `charter settings edit`
// validates each round of the editor with it, and `charter doctor` every
// settings file. It returns nil, or an error coded malformed_settings that
// lists every problem with path and line.
func Validate(path string, data []byte) error {
	return fileError(loadLayer(path, data).problems, []string{path})
}

// CheckEdit refuses an edit of the store's target file (old → data) that
// writes a value the policy does not allow. Only keys whose value changes
// count: a file already beyond the policy can still be edited elsewhere.
func (st *Store) CheckEdit(old, data []byte) error {
	before := map[string]any{}
	for _, v := range loadLayer(st.Path(), old).values {
		before[v.key] = v.v
	}
	for _, v := range loadLayer(st.Path(), data).values {
		if b, ok := before[v.key]; ok && sameValue(b, v.v) {
			continue
		}
		if err := st.policy.Check(v.key, v.v); err != nil {
			return err
		}
		if err := checkPolicyItems(st.sys, st.policy, map[string]any{v.key: v.v}, before); err != nil {
			return err
		}
	}
	return nil
}
