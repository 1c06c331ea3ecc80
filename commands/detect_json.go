package commands

import (
	"strconv"

	"github.com/agentkit/charter/core/companion"
)

// detectJSON is `detect --json`'s document, byte for byte what writeJSON
// makes of d, written without reflection: encoding/json's first use of a
// struct type builds its field cache, more work than detect's own.
// TestDetectJSONAsEncoding holds the two equal.
func detectJSON(d companion.Detection) []byte {
	b := make([]byte, 0, 256)
	b = append(b, "{\n  \"installed\": "...)
	b = strconv.AppendBool(b, d.Installed)
	b = append(b, ",\n  \"version\": "...)
	b = appendStringPtr(b, d.Version)
	b = append(b, ",\n  \"installCommand\": "...)
	b = appendStringPtr(b, d.InstallCommand)
	b = append(b, ",\n  \"repo\": "...)
	b = appendJSONString(b, d.Repo)
	b = append(b, ",\n  \"dismissed\": "...)
	b = strconv.AppendBool(b, d.Dismissed)
	return append(b, "\n}\n"...)
}
