package server

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agentkit/charter/core/profile"
	"github.com/agentkit/charter/core/settings"
)

func TestGetSettings(t *testing.T) {
	e := newEnv(t)
	r := e.start(t, 0)
	rp := r.do("GET", "api/v1/settings", "")
	if rp.status != 200 {
		t.Fatalf("%d %s", rp.status, rp.body)
	}
	snap, err := settings.New(e.sys, e.scope).Read()
	if err != nil {
		t.Fatal(err)
	}
	if got := rp.header.Get("ETag"); got != snap.ETag || !strings.HasPrefix(got, `"`) {
		t.Errorf("ETag %q, want %q", got, snap.ETag)
	}
	var doc struct {
		Values        map[string]any
		Origins       map[string]string
		Scope         struct{ Kind, Path string }
		Path          string
		SchemaVersion int
		Unknown       []string
	}
	if err := json.Unmarshal(rp.body, &doc); err != nil {
		t.Fatal(err)
	}
	// The hub takes the file's path from here rather than joining it itself.
	if want := settings.New(e.sys, e.scope).Path(); doc.Path != want {
		t.Errorf("path %q, want %q", doc.Path, want)
	}
	if doc.Values["rules"].(map[string]any)["tier"] != "balanced" || doc.Origins["rules.tier"] != "default" ||
		doc.Scope.Kind != "host" || doc.Scope.Path != e.scope.Path || doc.SchemaVersion != settings.SchemaVersion || doc.Unknown == nil {
		t.Errorf("body %s", rp.body)
	}
}

func TestPatchSettings(t *testing.T) {
	e := newEnv(t)
	r := e.start(t, 0)
	etag := r.do("GET", "api/v1/settings", "").header.Get("ETag")
	body := `{"set":{"rules.tier":"full","gates.coverage.min":12.50,"rules.disabled":["a","b"]}}`

	rp := r.do("PATCH", "api/v1/settings", body)
	if rp.status != 428 || rp.errCode(t) != "precondition_required" {
		t.Fatalf("without If-Match: %d %s", rp.status, rp.body)
	}

	rp = r.do("PATCH", "api/v1/settings", body, header("If-Match", `"stale"`))
	if rp.status != 412 || rp.errCode(t) != "stale_etag" {
		t.Fatalf("stale: %d %s", rp.status, rp.body)
	}
	if rp.header.Get("ETag") != etag || rp.json(t)["error"].(map[string]any)["currentEtag"] != etag {
		t.Errorf("412 must carry the current ETag %s: %v %s", etag, rp.header, rp.body)
	}

	rp = r.do("PATCH", "api/v1/settings", body, header("If-Match", etag))
	if rp.status != 200 {
		t.Fatalf("patch: %d %s", rp.status, rp.body)
	}
	next := rp.header.Get("ETag")
	if next == "" || next == etag {
		t.Errorf("ETag after write %q (before %q)", next, etag)
	}
	// The same body as GET, with the exact decimal text.
	get := r.do("GET", "api/v1/settings", "")
	if string(get.body) != string(rp.body) || get.header.Get("ETag") != next {
		t.Errorf("PATCH body differs from GET:\n%s\n%s", rp.body, get.body)
	}
	if !strings.Contains(string(rp.body), `"min":12.5,`) {
		t.Errorf("decimal not canonical: %s", rp.body)
	}
	snap, err := settings.New(e.sys, e.scope).Read()
	if err != nil {
		t.Fatal(err)
	}
	if snap.Values["rules.tier"] != "full" || snap.Values["gates.coverage.min"] != settings.Dec("12.5") {
		t.Errorf("stored %v %v", snap.Values["rules.tier"], snap.Values["gates.coverage.min"])
	}

	// The old ETag is stale now; nothing is written.
	rp = r.do("PATCH", "api/v1/settings", `{"set":{"rules.tier":"minimal"}}`, header("If-Match", etag))
	if rp.status != 412 || rp.header.Get("ETag") != next {
		t.Fatalf("reused ETag: %d %s", rp.status, rp.body)
	}

	rp = r.do("PATCH", "api/v1/settings", `{"unset":["rules.tier"]}`, header("If-Match", next))
	if rp.status != 200 || rp.json(t)["origins"].(map[string]any)["rules.tier"] != "default" {
		t.Fatalf("unset: %d %s", rp.status, rp.body)
	}
}

func TestPatchSettingsInvalid(t *testing.T) {
	e := newEnv(t)
	r := e.start(t, 0)
	etag := r.do("GET", "api/v1/settings", "").header.Get("ETag")
	rp := r.do("PATCH", "api/v1/settings",
		`{"set":{"rules.tier":"extreme","nope.key":1,"gates.coverage.min":"abc","skills.autoload":true},"unset":["also.nope"]}`,
		header("If-Match", etag))
	if rp.status != 422 || rp.errCode(t) != "invalid_value" {
		t.Fatalf("%d %s", rp.status, rp.body)
	}
	var doc struct {
		Error struct{ Problems []settings.Problem }
	}
	json.Unmarshal(rp.body, &doc)
	var keys []string
	for _, p := range doc.Error.Problems {
		if p.Message == "" {
			t.Errorf("problem without message: %+v", p)
		}
		keys = append(keys, p.Key)
	}
	if strings.Join(keys, " ") != "also.nope gates.coverage.min nope.key rules.tier" {
		t.Errorf("problem keys %v", keys)
	}
	if _, err := os.Stat(settings.New(e.sys, e.scope).Path()); !os.IsNotExist(err) {
		t.Error("an invalid patch wrote the file")
	}

	for body, want := range map[string]struct {
		status int
		code   string
	}{
		`{"set":{"rules.tier":"full"}`:  {400, "invalid_json"},
		`{"sett":{}}`:                   {422, "invalid_request"},
		`{"set":["rules.tier"]}`:        {422, "invalid_request"},
		`{"unset":"rules.tier"}`:        {422, "invalid_request"},
		`{"confirmSharedWrite":"true"}`: {422, "invalid_request"},
		`{"unset":["nope"]}`:            {422, "unknown_key"},
	} {
		rp := r.do("PATCH", "api/v1/settings", body, header("If-Match", etag))
		if rp.status != want.status || rp.errCode(t) != want.code {
			t.Errorf("%s: %d %s, want %d %s", body, rp.status, rp.body, want.status, want.code)
		}
	}
}

// A root inside the companion tree whose settings.yaml links to a file
// shared between profiles: 409 until confirmed, then written through the
// link, which stays a link.
func TestPatchSettingsSharedLink(t *testing.T) {
	e := newEnv(t)
	root := filepath.Join(e.home, ".agent-switch", "claude", "work", "charter")
	sc, err := profile.ResolveScope(e.sys, &root)
	if err != nil {
		t.Fatal(err)
	}
	e.scope = sc
	shared := filepath.Join(e.dir, "shared.yaml")
	if err := os.WriteFile(shared, []byte("# shared by every profile\nrules:\n  tier: minimal\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(root, 0o700); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, "settings.yaml")
	if err := os.Symlink(shared, link); err != nil {
		t.Skip("no symlinks:", err)
	}
	r := e.start(t, 0)
	get := r.do("GET", "api/v1/settings", "")
	if !strings.Contains(string(get.body), `"tier":"minimal"`) {
		t.Fatalf("shared file not read: %s", get.body)
	}
	etag := get.header.Get("ETag")

	rp := r.do("PATCH", "api/v1/settings", `{"set":{"rules.tier":"full"}}`, header("If-Match", etag))
	if rp.status != 409 {
		t.Fatalf("%d %s", rp.status, rp.body)
	}
	checkSharedBody(t, rp, link)

	rp = r.do("PATCH", "api/v1/settings", `{"set":{"rules.tier":"full"},"confirmSharedWrite":true}`, header("If-Match", etag))
	if rp.status != 200 {
		t.Fatalf("confirmed: %d %s", rp.status, rp.body)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("link not intact: %v", err)
	}
	data, _ := os.ReadFile(shared)
	if !strings.Contains(string(data), "tier: full") || !strings.Contains(string(data), "# shared by every profile") {
		t.Errorf("shared file:\n%s", data)
	}
}

func TestMalformedSettings(t *testing.T) {
	e := newEnv(t)
	path := settings.New(e.sys, e.scope).Path()
	bad := []byte("rules:\n  tier: [unclosed\n")
	os.MkdirAll(filepath.Dir(path), 0o700)
	if err := os.WriteFile(path, bad, 0o600); err != nil {
		t.Fatal(err)
	}
	r := e.start(t, 0)
	rp := r.do("GET", "api/v1/settings", "")
	if rp.status != 500 || rp.errCode(t) != "malformed_settings" || !strings.Contains(string(rp.body), path) {
		t.Fatalf("GET: %d %s", rp.status, rp.body)
	}
	rp = r.do("PATCH", "api/v1/settings", `{"set":{"rules.tier":"full"}}`, header("If-Match", "*"))
	if rp.status != 500 || rp.errCode(t) != "malformed_settings" {
		t.Fatalf("PATCH: %d %s", rp.status, rp.body)
	}
	if got, _ := os.ReadFile(path); string(got) != string(bad) {
		t.Error("a malformed file was rewritten")
	}
}

func TestSchema(t *testing.T) {
	r := newEnv(t).start(t, 0)
	rp := r.do("GET", "api/v1/settings/schema", "")
	m := rp.json(t)
	if rp.status != 200 || m["$schema"] != "https://json-schema.org/draft/2020-12/schema" {
		t.Fatalf("%d %s", rp.status, rp.body)
	}
	want, _ := json.Marshal(settings.JSONSchema())
	got, _ := json.Marshal(m)
	var w map[string]any
	json.Unmarshal(want, &w)
	want, _ = json.Marshal(w)
	if string(got) != string(want) {
		t.Errorf("schema differs from settings.JSONSchema()")
	}
}

// One writer per schema key, several rounds, each PATCH under If-Match and
// retried after a re-read on 412: every last write must be in the file.
func TestConcurrentPatches(t *testing.T) {
	e := newEnv(t)
	r := e.start(t, 0)
	res := r.patchRounds(t, 3, false)
	if res.errors > 0 {
		t.Fatalf("%d errors", res.errors)
	}
	r.checkFinal(t, e, 3)
}

// One writer per schema key with the per-key base (SPEC §8), several
// rounds, while readers poll: writers of different keys never conflict, so
// there is no 412 at all, and no write is lost.
func TestConcurrentPatchesBase(t *testing.T) {
	e := newEnv(t)
	r := e.start(t, 0)
	stop := make(chan struct{})
	var readers sync.WaitGroup
	for range 4 {
		readers.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				if rp, err := r.send("GET", "api/v1/settings", ""); err != nil || rp.status != 200 {
					t.Errorf("GET during writes: %v %d", err, rp.status)
					return
				}
			}
		})
	}
	res := r.patchRounds(t, 4, true)
	close(stop)
	readers.Wait()
	if res.errors > 0 || res.retries > 0 {
		t.Fatalf("%d errors, %d 412s: writers of distinct keys must not conflict", res.errors, res.retries)
	}
	r.checkFinal(t, e, 4)
	// The very next GET shows every last write.
	get := r.do("GET", "api/v1/settings", "")
	for _, k := range settings.Keys() {
		if got, want := valueAt(get.body, k.Name), valueFor(k, 4); string(got) != string(want) {
			t.Errorf("GET %s = %s, want %s", k.Name, got, want)
		}
	}
}

func TestPatchSettingsBase(t *testing.T) {
	e := newEnv(t)
	r := e.start(t, 0)

	// Neither base nor If-Match.
	rp := r.do("PATCH", "api/v1/settings", `{"set":{"rules.tier":"full"}}`)
	if rp.status != 428 || rp.errCode(t) != "precondition_required" {
		t.Fatalf("no precondition: %d %s", rp.status, rp.body)
	}
	// base must cover every key written.
	rp = r.do("PATCH", "api/v1/settings", `{"set":{"rules.tier":"full"},"unset":["skills.autoload"],"base":{"rules.tier":"balanced"}}`)
	if rp.status != 428 || !strings.Contains(string(rp.body), "skills.autoload") {
		t.Fatalf("partial base: %d %s", rp.status, rp.body)
	}
	rp = r.do("PATCH", "api/v1/settings", `{"set":{"rules.tier":"full"},"base":{"rules.tier":"balanced"}}`)
	if rp.status != 200 {
		t.Fatalf("base: %d %s", rp.status, rp.body)
	}
	// Another writer changes a different key: no conflict, the file is
	// merged under the lock and keeps both.
	rp = r.do("PATCH", "api/v1/settings", `{"set":{"gates.coverage.min":12.50},"base":{"gates.coverage.min":`+string(valueAt(r.do("GET", "api/v1/settings", "").body, "gates.coverage.min"))+`}}`)
	if rp.status != 200 {
		t.Fatalf("other key: %d %s", rp.status, rp.body)
	}
	// A writer that read rules.tier before the first write conflicts.
	rp = r.do("PATCH", "api/v1/settings", `{"set":{"rules.tier":"minimal"},"base":{"rules.tier":"balanced"}}`)
	if rp.status != 412 || rp.errCode(t) != "stale_etag" {
		t.Fatalf("same key: %d %s", rp.status, rp.body)
	}
	var doc struct {
		Error struct {
			Conflicts   []string
			CurrentEtag string
			Current     struct{ Values map[string]json.RawMessage }
		}
	}
	if err := json.Unmarshal(rp.body, &doc); err != nil {
		t.Fatal(err)
	}
	cur, _ := json.Marshal(doc.Error.Current)
	if strings.Join(doc.Error.Conflicts, ",") != "rules.tier" || doc.Error.CurrentEtag == "" || rp.header.Get("ETag") != doc.Error.CurrentEtag ||
		string(valueAt(cur, "rules.tier")) != `"full"` {
		t.Errorf("412 must name the key and carry the current document: %s", rp.body)
	}
	// A decimal base matches by value, whatever its text.
	rp = r.do("PATCH", "api/v1/settings", `{"unset":["gates.coverage.min"],"base":{"gates.coverage.min":12.500}}`)
	if rp.status != 200 {
		t.Fatalf("decimal base: %d %s", rp.status, rp.body)
	}
	snap, err := settings.New(e.sys, e.scope).Read()
	if err != nil {
		t.Fatal(err)
	}
	if snap.Values["rules.tier"] != "full" || snap.Origins["gates.coverage.min"] != settings.OriginDefault {
		t.Errorf("stored %v %v", snap.Values["rules.tier"], snap.Origins["gates.coverage.min"])
	}
	// A base value of the wrong type is a bad request, not a conflict.
	rp = r.do("PATCH", "api/v1/settings", `{"set":{"rules.tier":"full"},"base":{"rules.tier":7}}`)
	if rp.status != 422 {
		t.Errorf("bad base value: %d %s", rp.status, rp.body)
	}
}
