package server

import (
	"os"
	"strings"
	"testing"

	"github.com/agentkit/charter/core/settings"
)

// What a plain HTTP client held against RFC 9110 met (issue 25, defect 8).

// If-Match is a list (RFC 9110 §13.1.1): one strong tag that matches is
// enough; a weak tag never matches, even with the current opaque tag.
func TestIfMatchList(t *testing.T) {
	e := newEnv(t)
	r := e.start(t, 0)
	etag := r.do("GET", "api/v1/settings", "").header.Get("ETag")
	body := `{"set":{"rules.tier":"full"}}`
	if rp := r.do("PATCH", "api/v1/settings", body, header("If-Match", `W/`+etag)); rp.status != 412 {
		t.Fatalf("weak tag: %d %s", rp.status, rp.body)
	}
	rp := r.do("PATCH", "api/v1/settings", body, header("If-Match", `"0000", `+etag+`, "ffff"`))
	if rp.status != 200 {
		t.Fatalf("list holding the current tag: %d %s", rp.status, rp.body)
	}
	if rp := r.do("PATCH", "api/v1/settings", body, header("If-Match", `"0000", `+etag)); rp.status != 412 {
		t.Fatalf("list of old tags: %d %s", rp.status, rp.body)
	}
}

// HEAD on a GET endpoint is GET without the body (RFC 9110 §9.3.2).
func TestHeadIsGet(t *testing.T) {
	e := newEnv(t)
	r := e.start(t, 0)
	get := r.do("GET", "api/v1/settings", "")
	head := r.do("HEAD", "api/v1/settings", "")
	if head.status != 200 || len(head.body) != 0 || head.header.Get("ETag") != get.header.Get("ETag") ||
		head.header.Get("Content-Type") != get.header.Get("Content-Type") {
		t.Fatalf("HEAD: %d %q %v", head.status, head.body, head.header)
	}
	if rp := r.do("PUT", "api/v1/settings", ""); rp.status != 405 || rp.header.Get("Allow") != "GET, HEAD, PATCH" {
		t.Fatalf("PUT: %d Allow %q", rp.status, rp.header.Get("Allow"))
	}
}

// A body of null (or any JSON that is no object) is not a request: 422.
func TestPatchNull(t *testing.T) {
	e := newEnv(t)
	r := e.start(t, 0)
	for _, body := range []string{`null`, ` null `, `[]`, `"set"`, `1`} {
		rp := r.do("PATCH", "api/v1/settings", body, header("If-Match", "*"))
		if rp.status != 422 || rp.errCode(t) != "invalid_request" || !strings.Contains(string(rp.body), "the request body must be a JSON object") {
			t.Errorf("%s: %d %s", body, rp.status, rp.body)
		}
	}
}

// A decimal keeps its exact text from the request to the file and back.
func TestPatchExactDecimal(t *testing.T) {
	e := newEnv(t)
	r := e.start(t, 0)
	const exact = "0.1000000000000000055"
	rp := r.do("PATCH", "api/v1/settings", `{"set":{"gates.coverage.min":`+exact+`}}`, header("If-Match", "*"))
	if rp.status != 200 || !strings.Contains(string(rp.body), exact) {
		t.Fatalf("%d %s", rp.status, rp.body)
	}
	data, err := os.ReadFile(settings.New(e.sys, e.scope).Path())
	if err != nil || !strings.Contains(string(data), exact) {
		t.Fatalf("file: %v\n%s", err, data)
	}
	if get := r.do("GET", "api/v1/settings", ""); !strings.Contains(string(get.body), exact) {
		t.Fatalf("GET %s", get.body)
	}
}

// A body of the wrong shape is told in the client's words: JSON types and
// the request's field names, no Go type names.
func TestBadShapeMessage(t *testing.T) {
	e := newEnv(t)
	r := e.start(t, 0)
	for body, want := range map[string]string{
		`{"set":[]}`:                 `"set" must be an object, not an array`,
		`{"unset":"rules.tier"}`:     `"unset" must be an array, not a string`,
		`{"confirmSharedWrite":"y"}`: `"confirmSharedWrite" must be true or false, not a string`,
		`{"layer":1}`:                `"layer" must be a string, not a number`,
		`{"sets":{}}`:                `unknown field "sets"`,
	} {
		rp := r.do("PATCH", "api/v1/settings", body, header("If-Match", "*"))
		msg, _ := rp.json(t)["error"].(map[string]any)["message"].(string)
		if rp.status != 422 || !strings.Contains(msg, want) || strings.Contains(msg, "Go ") || strings.Contains(msg, "map[") ||
			strings.Contains(msg, "json.RawMessage") || strings.Contains(msg, "[]string") {
			t.Errorf("%s: %d %s", body, rp.status, msg)
		}
	}
}

// The same through the base precondition, on a project layer and with
// confidence_floor: no float64 on the way.
func TestPatchExactDecimalBase(t *testing.T) {
	e := newEnv(t)
	r := e.start(t, 0)
	const exact = "0.6000000000000000055"
	rp := r.do("PATCH", "api/v1/settings", `{"set":{"commands.suggestions.confidence_floor":`+exact+`},"base":{"commands.suggestions.confidence_floor":0.6}}`)
	if rp.status != 200 || !strings.Contains(string(rp.body), exact) {
		t.Fatalf("%d %s", rp.status, rp.body)
	}
	rp = r.do("PATCH", "api/v1/settings", `{"set":{"commands.suggestions.confidence_floor":0.7},"base":{"commands.suggestions.confidence_floor":0.6}}`)
	if rp.status != 412 && rp.status != 409 {
		t.Fatalf("base 0.6 against %s: %d %s", exact, rp.status, rp.body)
	}
}
