package settings

// Editing a layer's YAML: in place where it can, else by rewriting the tree.

import (
	"errors"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/agentkit/charter/core"
)

// edit applies u to cur, the layer read from old, and returns the new text
// and its layer: in place when every key set holds a one-line value (see
// inplace.go), else by rewriting the tree, refused when that would lose a
// comment.
func edit(path string, cur *layer, old []byte, u Update) ([]byte, *layer, error) {
	if spans, ok := inPlaceSpans(cur.file, cur.leaves, old, u); ok {
		if err := setValues(path, cur.file.root(), u); err != nil {
			return nil, nil, err
		}
		data := splice(old, spans)
		if next := loadLayer(path, data); len(next.problems) == 0 && sameTree(next.file.doc, cur.file.doc) {
			next.exists = true
			return data, next, nil
		}
		cur = loadLayer(path, old) // the tree was edited: start again from the text
	}
	// Comments are the user's: an edit keeps every one but those on the
	// line of a key it removes or inside a value it replaces.
	keep := mustKeep(cur.file, old, dropsOf(cur.leaves, append(sortedKeys(u.Set), u.Unset...)))
	root := cur.file.root()
	if err := setValues(path, root, u); err != nil {
		return nil, nil, err
	}
	for _, key := range u.Unset {
		k, _ := Lookup(key)
		unsetValue(root, k.segments())
	}
	data, err := cur.file.encode()
	if err != nil {
		return nil, nil, fmt.Errorf("encode %s: %w", path, err)
	}
	next := loadLayer(path, data)
	if len(next.problems) > 0 {
		return nil, nil, fmt.Errorf("charter could not edit %s safely (%s); nothing was written: make the change by hand", path, next.problems[0].Message)
	}
	if lost := keep.lostIn(next.file, data); len(lost) > 0 {
		return nil, nil, lostComment(path, old, lost[0])
	}
	next.exists = true
	return data, next, nil
}

// setValues puts every value of u.Set into the tree under root; a value
// the user wrote in the way of a key is a problem for that key.
func setValues(path string, root *yaml.Node, u Update) error {
	var problems []Problem
	for _, key := range sortedKeys(u.Set) {
		k, _ := Lookup(key)
		var owned *ownedValueError
		if err := setValue(root, "", k.segments(), toNode(u.Set[key])); errors.As(err, &owned) {
			problems = append(problems, scalarParent(path, key, owned))
		} else if err != nil {
			return err
		}
	}
	if len(problems) > 0 {
		return &ValidationError{Problems: problems}
	}
	return nil
}

func scalarParent(path, key string, e *ownedValueError) Problem {
	return Problem{Key: key, Code: core.CodeScalarParent, Message: fmt.Sprintf(
		"%s:%d: %s holds a value there, so %s cannot go inside it without losing that value: edit or remove line %d, then run the command again",
		path, e.Line, e.Parent, key, e.Line)}
}

// lostComment refuses an edit the YAML writer cannot make without dropping
// a comment (one in an odd place, such as between a key and its value).
func lostComment(path string, data []byte, comment string) error {
	line := 0
	for i, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, comment) {
			line = i + 1
			break
		}
	}
	return &FileError{Path: path, Problems: []FileProblem{{File: path, Line: line, Message: fmt.Sprintf(
		"charter cannot rewrite this file without losing the comment %q here: move it next to a key, on the line above it or at the end of its line", comment)}}}
}
