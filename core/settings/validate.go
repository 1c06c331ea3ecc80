package settings

import "errors"

// Validate checks data as the content of the settings file at path, the
// way a read checks it, without touching any file: `charter settings edit`
// validates each round of the editor with it, and `charter doctor` every
// settings file. It returns nil, or an error coded malformed_settings that
// lists every problem with path and line.
func Validate(path string, data []byte) error {
	doc, err := parse(path, data)
	if err != nil {
		return err // a syntax error hides whatever follows it
	}
	var problems []error
	for _, leaf := range leaves(doc) {
		k, ok := Lookup(leaf.key)
		if !ok {
			continue // unknown keys are kept, not rejected
		}
		if _, err := fromNode(k, leaf.value); err != nil {
			problems = append(problems, &SyntaxError{Path: path, Line: leaf.value.Line, Msg: err.Error()})
		}
	}
	if len(problems) == 1 {
		return problems[0]
	}
	return errors.Join(problems...)
}
