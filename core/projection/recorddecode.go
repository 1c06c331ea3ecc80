package projection

import (
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// decodeRecord reads a record in the exact shape Encode writes, one
// entry a line, without the reflection of encoding/json (a lock of
// thousands of entries is read on every apply). ok is false for anything
// else, escapes included: the caller then decodes it with encoding/json,
// so both readings agree on every record.
func decodeRecord(data []byte) (r Record, ok bool) {
	s := string(data)
	rest, found := strings.CutPrefix(s, "{\"version\":1,\"files\":[\n  ")
	if !found || strings.IndexByte(s, '\\') >= 0 || !utf8.ValidString(s) {
		return Record{}, false
	}
	r = Record{Version: RecordVersion, Files: make([]Recorded, 0, strings.Count(s, "\n"))}
	for {
		end := strings.IndexByte(rest, '\n')
		if end < 0 {
			return Record{}, false
		}
		line := rest[:end]
		rest = rest[end+1:]
		more := strings.HasSuffix(line, ",")
		e, ok := decodeEntry(strings.TrimSuffix(line, ","))
		if !ok {
			return Record{}, false
		}
		r.Files = append(r.Files, e)
		if !more {
			break
		}
		if rest, found = strings.CutPrefix(rest, "  "); !found {
			return Record{}, false
		}
	}
	tail, found := strings.CutPrefix(rest, "]")
	if !found {
		return Record{}, false
	}
	switch {
	case tail == "}\n":
	case strings.HasPrefix(tail, ",\"agents\":") && strings.HasSuffix(tail, "}\n"):
		if json.Unmarshal([]byte(tail[len(",\"agents\":"):len(tail)-2]), &r.Agents) != nil {
			return Record{}, false
		}
	default:
		return Record{}, false
	}
	return r, true
}

// decodeEntry reads {"path":…,"sha256":…,"kind":…,"item":…,"agent":…}:
// without a backslash no value can hold a quote, so splitting is exact.
func decodeEntry(line string) (Recorded, bool) {
	keys := [...]string{"{\"path\":\"", "\",\"sha256\":\"", "\",\"kind\":\"", "\",\"item\":\"", "\",\"agent\":\""}
	for i := 0; i < len(line); i++ {
		if line[i] < 0x20 { // JSON has them escaped
			return Recorded{}, false
		}
	}
	var vals [5]string
	rest := line
	for i, k := range keys {
		var ok bool
		if rest, ok = strings.CutPrefix(rest, k); !ok {
			return Recorded{}, false
		}
		end := strings.IndexByte(rest, '"')
		if end < 0 {
			return Recorded{}, false
		}
		vals[i], rest = rest[:end], rest[end:]
	}
	if rest != "\"}" {
		return Recorded{}, false
	}
	return Recorded{Path: vals[0], SHA256: vals[1], Kind: vals[2], Item: vals[3], Agent: vals[4]}, true
}
