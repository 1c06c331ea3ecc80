package settings

// Comments are the user's: an edit keeps every one of them but those on the
// line of a key it removes or inside a value it replaces. yaml.v3 loses a
// few comments in odd places, so each edit is checked against the file it
// started from, and refused rather than let one go.

import (
	"bytes"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// mayDrop is what an edit of some keys may drop: the comment at the end of
// each key's line, and every comment inside its value.
type mayDrop struct{ keys, values map[*yaml.Node]bool }

// dropsOf lists what editing keys may drop in a file with these leaves.
func dropsOf(leaves []leaf, keys []string) mayDrop {
	d := mayDrop{keys: map[*yaml.Node]bool{}, values: map[*yaml.Node]bool{}}
	for _, l := range leaves {
		if slices.Contains(keys, l.key) {
			d.keys[l.keyNode], d.values[l.value] = true, true
		}
	}
	return d
}

// commentLines lists the comment lines in the tree under n, but for those
// an edit may drop.
func commentLines(n *yaml.Node, drop mayDrop) []string {
	var out []string
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if drop.values[n] {
			return
		}
		blocks := []string{n.HeadComment, n.LineComment, n.FootComment}
		if drop.keys[n] {
			blocks[1] = ""
		}
		for _, b := range blocks {
			for line := range strings.SplitSeq(b, "\n") {
				if line = strings.TrimSpace(line); line != "" {
					out = append(out, line)
				}
			}
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(n)
	return out
}

// kept is what an edit must keep of a file's comments: the lines in its
// tree (comments at the end of a line too) and the full-line comments of
// its text (the parser drops a few it cannot place).
type kept struct{ tree, text []string }

// mustKeep lists the comments of a file that an edit must keep, given what
// it may drop. Call it before the edit changes the tree.
func mustKeep(f *yamlFile, text []byte, drop mayDrop) kept {
	tree := commentLines(f.doc, drop)
	dropped := missing(commentLines(f.doc, mayDrop{}), tree)
	return kept{tree: tree, text: missing(fullLineComments(text), dropped)}
}

// lostIn returns the comment lines the edited file lacks.
func (k kept) lostIn(f *yamlFile, text []byte) []string {
	return append(missing(k.tree, commentLines(f.doc, mayDrop{})), missing(k.text, fullLineComments(text))...)
}

// fullLineComments lists the lines of text that hold only a comment. It
// checks the parser, which loses a few comments in odd places; a line of a
// block scalar that starts with # counts too, which errs on the safe side.
func fullLineComments(data []byte) []string {
	data = bytes.TrimPrefix(data, []byte(utf8BOM))
	var out []string
	for line := range strings.SplitSeq(string(data), "\n") {
		if line = strings.TrimSpace(line); strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	return out
}

// missing returns the lines of want that got lacks, counting repeats.
func missing(want, got []string) []string {
	have := make(map[string]int, len(got))
	for _, g := range got {
		have[g]++
	}
	var lost []string
	for _, w := range want {
		if have[w] == 0 {
			lost = append(lost, w)
			continue
		}
		have[w]--
	}
	return lost
}
