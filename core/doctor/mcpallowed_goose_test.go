package doctor

import (
	"strings"
	"testing"
)

// Goose's config.yaml keeps its servers as extensions by name: doctor
// reads the MCP ones (stdio, remote with its uri) and not Goose's own
// builtin extensions.
func TestNativeServerURLsGoose(t *testing.T) {
	data := "GOOSE_MODEL: m\nextensions:\n  developer:\n    type: builtin\n    enabled: true\n  own:\n    type: stdio\n    cmd: own-mcp\n  far:\n    type: streamable_http\n    uri: https://x.example.com/mcp\n"
	got, err := nativeServerURLs("goose", []byte(data))
	if err != nil || len(got) != 2 || got[0].Name != "far" || got[0].URL != "https://x.example.com/mcp" || got[1].Name != "own" || got[1].URL != "" {
		t.Errorf("servers %+v (%v), want far with its URL and own", got, err)
	}
	if _, err := nativeServerURLs("goose", []byte("extensions: {\n")); err == nil || !strings.Contains(err.Error(), "YAML") {
		t.Errorf("a broken config.yaml: %v, want an error naming YAML", err)
	}
}
