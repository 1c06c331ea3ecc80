package settings

import "go.yaml.in/yaml/v3"

// plainDoc builds the node tree the YAML parser makes of a file written
// only as nested block mappings of plain words: `key:` over a deeper
// block, or `key: value`, where a key is a word and a value a word,
// true, false or a decimal integer. The parser's first run costs a process
// a quarter of a millisecond (its code and buffers); most project files
// are this shape. Anything else (a comment, a blank line, a quote, a
// tab, a list, a value another word might resolve to) returns false and
// goes to the parser. TestPlainDocAsParser holds the tree to the parser's.
func plainDoc(data []byte) (*yaml.Node, bool) {
	if len(data) == 0 || data[len(data)-1] != '\n' {
		return nil, false
	}
	root := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: 1, Column: 1}
	// open holds the mappings that lines may still add to, by indent;
	// pending says the last key opened a block, which the next line starts.
	type level struct {
		indent int
		node   *yaml.Node
	}
	open := []level{{0, root}}
	pending := false
	for line, start := 1, 0; start < len(data); line++ {
		end := start
		for data[end] != '\n' {
			end++
		}
		text := data[start:end]
		start = end + 1
		indent := 0
		for indent < len(text) && text[indent] == ' ' {
			indent++
		}
		key, value, ok := plainLine(text[indent:])
		if !ok {
			return nil, false
		}
		top := open[len(open)-1]
		switch {
		case pending:
			// The key before opened a block: this line starts it, deeper.
			if indent <= top.indent {
				return nil, false
			}
			m := top.node.Content[len(top.node.Content)-1]
			m.Kind, m.Tag, m.Line, m.Column = yaml.MappingNode, "!!map", line, indent+1
			open = append(open, level{indent, m})
		default:
			for len(open) > 1 && indent < open[len(open)-1].indent {
				open = open[:len(open)-1]
			}
			if indent != open[len(open)-1].indent {
				return nil, false
			}
		}
		m := open[len(open)-1].node
		for i := 0; i < len(m.Content); i += 2 {
			if m.Content[i].Value == key {
				return nil, false // a repeated key is the parser's to judge
			}
		}
		k := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key, Line: line, Column: indent + 1}
		v := &yaml.Node{Kind: yaml.ScalarNode, Tag: plainTag(value), Value: value, Line: line, Column: indent + len(key) + 3}
		m.Content = append(m.Content, k, v)
		pending = value == ""
	}
	if pending {
		return nil, false // a key with nothing under it: the parser's null
	}
	return &yaml.Node{Kind: yaml.DocumentNode, Line: 1, Column: 1, Content: []*yaml.Node{root}}, true
}

// plainLine splits `key:` or `key: value` (one space, nothing after the
// value); value is "" for a key that opens a block.
func plainLine(s []byte) (key, value string, ok bool) {
	i := 0
	for i < len(s) && s[i] != ':' {
		i++
	}
	// A key longer than 1,024 characters is no implicit key to YAML.
	if i == len(s) || i > 1024 || !plainWord(s[:i]) || plainTag(string(s[:i])) != "!!str" {
		return "", "", false
	}
	key = string(s[:i])
	switch rest := s[i+1:]; {
	case len(rest) == 0:
		return key, "", true
	case len(rest) > 1 && rest[0] == ' ' && (plainWord(rest[1:]) || plainInt(rest[1:])):
		return key, string(rest[1:]), true
	}
	return "", "", false
}

// plainWord is a letter, then letters, digits and -_./ only: a word no
// YAML 1.2 rule reads as anything but a string, bar the few plainTag names.
func plainWord(s []byte) bool {
	if len(s) == 0 || !(s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z') {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c == '/') {
			return false
		}
	}
	return true
}

// plainInt is a decimal integer without sign or leading zero, short
// enough for an int64.
func plainInt(s []byte) bool {
	if len(s) == 0 || len(s) > 18 || s[0] == '0' && len(s) > 1 {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// plainTag is the tag the parser resolves a plain word or integer to.
func plainTag(s string) string {
	switch s {
	case "true", "True", "TRUE", "false", "False", "FALSE":
		return "!!bool"
	case "null", "Null", "NULL":
		return "!!null"
	}
	if s != "" && s[0] >= '0' && s[0] <= '9' {
		return "!!int"
	}
	return "!!str"
}
