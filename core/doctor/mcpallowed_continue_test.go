package doctor

import (
	"strings"
	"testing"
)

// Continue's config.yaml keeps its servers as a list, each with its name:
// doctor reads them by name, a remote one with its URL.
func TestNativeServerURLsContinue(t *testing.T) {
	data := "name: mine\nmcpServers:\n  - name: own\n    command: own-mcp\n  - {\"name\": \"far\", \"type\": \"streamable-http\", \"url\": \"https://x.example.com/mcp\"}\n"
	got, err := nativeServerURLs("continue", []byte(data))
	if err != nil || len(got) != 2 || got[0].Name != "far" || got[0].URL != "https://x.example.com/mcp" || got[1].Name != "own" || got[1].URL != "" {
		t.Errorf("servers %+v (%v), want far with its URL and own", got, err)
	}
	if _, err := nativeServerURLs("continue", []byte("mcpServers: [\n")); err == nil || !strings.Contains(err.Error(), "YAML") {
		t.Errorf("a broken config.yaml: %v, want an error naming YAML", err)
	}
}
