package settings

// Validate checks data as the content of the settings file at path, the
// way a read checks it, without touching any file: `charter settings edit`
// validates each round of the editor with it, and `charter doctor` every
// settings file. It returns nil, or an error coded malformed_settings that
// lists every problem with path and line.
func Validate(path string, data []byte) error {
	return fileError(loadLayer(path, data).problems, []string{path})
}
