package doctor

import (
	"strings"
	"testing"
)

// Zed's and Gemini CLI's settings.json and VS Code's mcp.json are read as JSONC, as the
// agents read them: a server there outside mcp.allowed is seen.
func TestNativeServersJSONC(t *testing.T) {
	for format, data := range map[string]string{
		"zed":    "// Zed settings\n{\n  \"context_servers\": {\n    \"far\": {\"url\": \"https://far.example/mcp\"}, // theirs\n  },\n}\n",
		"vscode": "{\n  \"servers\": {\n    /* theirs */ \"far\": {\"type\": \"http\", \"url\": \"https://far.example/mcp\"},\n  }\n}\n",
		"gemini": "{\n  // mine\n  \"mcpServers\": {\"far\": {\"httpUrl\": \"https://far.example/mcp\"}}\n}\n",
	} {
		got, err := nativeServerURLs(format, []byte(data))
		if err != nil || len(got) != 1 || got[0].Name != "far" || got[0].URL != "https://far.example/mcp" {
			t.Errorf("%s: %+v, %v; want the server far with its URL", format, got, err)
		}
	}
	if _, err := nativeServerURLs("zed", []byte("{\n/* open\n}")); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("unclosed comment: %v, want an error naming line 2", err)
	}
}
