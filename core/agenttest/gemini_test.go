package agenttest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// The Gemini API as Gemini CLI 0.61 calls it with GOOGLE_GEMINI_BASE_URL:
// POST /v1beta/models/MODEL:streamGenerateContent?alt=sse for the turn,
// :generateContent for its helpers (the model router's classifier asks
// for JSON by a schema) and :countTokens. The mock answers each with one
// short final text, or the smallest JSON the schema allows.

func init() {
	routes[":streamGenerateContent"] = serveGemini
	routes[":generateContent"] = serveGemini
	routes[":countTokens"] = serveGeminiCount
}

// geminiReply is the text the mock answers Gemini CLI with.
const geminiReply = "MOCK-REPLY-ok"

// geminiRequest is the part of a generateContent request the mock reads.
type geminiRequest struct {
	GenerationConfig struct {
		ResponseMimeType   string         `json:"responseMimeType"`
		ResponseJSONSchema map[string]any `json:"responseJsonSchema"`
		ResponseSchema     map[string]any `json:"responseSchema"`
	} `json:"generationConfig"`
}

func serveGemini(m *Mock, w http.ResponseWriter, r *http.Request, body []byte) {
	var req geminiRequest
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, "the body is no JSON: "+err.Error(), http.StatusBadRequest)
		return
	}
	text := geminiReply
	if strings.Contains(req.GenerationConfig.ResponseMimeType, "json") {
		schema := req.GenerationConfig.ResponseJSONSchema
		if schema == nil {
			schema = req.GenerationConfig.ResponseSchema
		}
		data, _ := json.Marshal(fromSchema(schema))
		text = string(data)
	}
	resp := map[string]any{
		"candidates": []any{map[string]any{"index": 0, "finishReason": "STOP",
			"content": map[string]any{"role": "model", "parts": []any{map[string]any{"text": text}}}}},
		"usageMetadata": map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 2, "totalTokenCount": 12},
	}
	data, _ := json.Marshal(resp)
	switch {
	case strings.HasSuffix(r.URL.Path, ":generateContent"):
		w.Header().Set("Content-Type", "application/json")
		w.Write(data)
	case r.URL.Query().Get("alt") == "sse":
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "data: %s\n\n", data)
	default: // a stream without alt=sse is one JSON array
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, "[%s]", data)
	}
}

func serveGeminiCount(m *Mock, w http.ResponseWriter, r *http.Request, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"totalTokens":%d}`, len(body)/4+1)
}

// fromSchema is the smallest value a JSON schema (OpenAPI or JSON Schema
// spelling) accepts: required properties only, the first enum value.
func fromSchema(s map[string]any) any {
	if enum, ok := s["enum"].([]any); ok && len(enum) > 0 {
		return enum[0]
	}
	switch strings.ToLower(fmt.Sprint(s["type"])) {
	case "object":
		props, _ := s["properties"].(map[string]any)
		out := map[string]any{}
		req, _ := s["required"].([]any)
		for _, k := range req {
			p, _ := props[fmt.Sprint(k)].(map[string]any)
			out[fmt.Sprint(k)] = fromSchema(p)
		}
		return out
	case "array":
		return []any{}
	case "integer", "number":
		return 1
	case "boolean":
		return false
	}
	return "mock"
}

// geminiTurns are the streamGenerateContent requests Gemini CLI sent:
// the turn itself, not its helpers.
func geminiTurns(m *Mock) []Request {
	var out []Request
	for _, r := range m.Requests() {
		if r.Method == http.MethodPost && strings.HasSuffix(r.Path, ":streamGenerateContent") {
			out = append(out, r)
		}
	}
	return out
}

// firstGeminiTurn is the text of Gemini CLI's first turn request: system
// instruction, context, prompt and tool declarations, JSON-decoded.
func firstGeminiTurn(t *testing.T, m *Mock) string {
	t.Helper()
	turns := geminiTurns(m)
	if len(turns) == 0 {
		t.Fatalf("Gemini CLI sent no streamGenerateContent request; requests: %s", requestLines(m))
	}
	return modelText(t, turns[0].Body)
}
