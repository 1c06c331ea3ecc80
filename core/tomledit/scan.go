package tomledit

import (
	"encoding/json"
	"strings"
)

// scan finds the table headers of data (already known to be valid TOML)
// and where each table's last key line ends. It follows strings,
// multi-line strings and arrays across lines, so a "[" inside one is not
// taken for a header.
func scan(data []byte) []table {
	var out []table
	s := string(data)
	var ml string // the closing quotes of an open multi-line string
	depth := 0    // open [ and { of a value across lines
	for pos := 0; pos < len(s); {
		nl := strings.IndexByte(s[pos:], '\n')
		next := len(s)
		if nl >= 0 {
			next = pos + nl + 1
		}
		line := s[pos:next]
		trimmed := strings.TrimLeft(line, " \t")
		switch {
		case ml != "" || depth > 0:
			ml, depth = scanValue(line, ml, depth)
			if len(out) > 0 {
				out[len(out)-1].end = next
			}
		case strings.HasPrefix(trimmed, "["):
			array := strings.HasPrefix(trimmed, "[[")
			out = append(out, table{key: headerKey(trimmed, array), array: array, start: pos, end: next})
		case strings.TrimSpace(trimmed) == "" || strings.HasPrefix(trimmed, "#"):
		default:
			ml, depth = scanValue(line, "", 0)
			if len(out) > 0 {
				out[len(out)-1].end = next
			}
		}
		pos = next
	}
	return out
}

// scanValue follows one line of a key line's value: it returns the
// multi-line string still open at its end and the depth of open brackets.
func scanValue(line, ml string, depth int) (string, int) {
	for i := 0; i < len(line); i++ {
		if ml != "" {
			if strings.HasPrefix(line[i:], ml) {
				i += len(ml) - 1
				for i+1 < len(line) && line[i+1] == ml[0] { // """" ends with a quote
					i++
				}
				ml = ""
			} else if ml == `"""` && line[i] == '\\' {
				i++
			}
			continue
		}
		switch c := line[i]; c {
		case '#':
			return "", depth
		case '"', '\'':
			q := string(c)
			if strings.HasPrefix(line[i:], q+q+q) {
				ml = q + q + q
				i += 2
				continue
			}
			for i++; i < len(line) && line[i] != c; i++ {
				if c == '"' && line[i] == '\\' {
					i++
				}
			}
		case '[', '{':
			depth++
		case ']', '}':
			depth--
		}
	}
	return ml, depth
}

// headerKey is the key of a [a."b".c] or [[a.b]] header line.
func headerKey(line string, array bool) []string {
	s := strings.TrimPrefix(line, "[")
	if array {
		s = strings.TrimPrefix(s, "[")
	}
	var key []string
	for {
		s = strings.TrimLeft(s, " \t")
		var part string
		switch {
		case strings.HasPrefix(s, `"`):
			end := 1
			for end < len(s) && s[end] != '"' {
				if s[end] == '\\' {
					end++
				}
				end++
			}
			_ = json.Unmarshal([]byte(s[:min(end+1, len(s))]), &part)
			s = s[min(end+1, len(s)):]
		case strings.HasPrefix(s, "'"):
			end := strings.IndexByte(s[1:], '\'') + 1
			part, s = s[1:end], s[end+1:]
		default:
			end := strings.IndexAny(s, ". \t]")
			if end < 0 {
				end = len(s)
			}
			part, s = s[:end], s[end:]
		}
		key = append(key, part)
		s = strings.TrimLeft(s, " \t")
		if !strings.HasPrefix(s, ".") {
			return key
		}
		s = s[1:]
	}
}
