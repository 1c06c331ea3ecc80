package commands

import (
	"reflect"
	"testing"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/helpers/jsondoc"
)

// pingDocs are documents that reach every branch of pingJSON; s is put in
// every string.
func pingDocs(s string) []core.PingDoc {
	prov, prof := "claude"+s, "work"+s
	full := core.PingDoc{
		OK: true, Name: "charter" + s, Version: "v1.2.3" + s,
		SwitcherProfile: core.Profile{Active: true, Provider: &prov, Profile: &prof},
		Capabilities:    map[string]bool{"zeta" + s: true, "alpha": false, s: true},
		ConfigRoot:      core.ConfigRoot{Path: "/h/" + s, Source: "env" + s},
		Scope:           core.Scope{Kind: "profile" + s, Path: "/h/p" + s},
		Project:         &core.Project{Dir: "/p" + s, Files: []string{"/p/a" + s, s}},
		Policy:          &core.PolicyRef{Path: "/etc/" + s},
		Trust:           &core.TrustState{State: "untrusted" + s, Command: "charter trust " + s, Error: "e" + s},
		MixedProfiles:   []core.VarProfile{{Variable: "A" + s, Provider: "b" + s, Profile: "c" + s}, {Variable: s}},
	}
	bare := core.PingDoc{Name: s}
	empty := full
	empty.Capabilities = map[string]bool{}
	empty.Project = &core.Project{Dir: s, Files: []string{}}
	empty.Trust = &core.TrustState{State: s}
	empty.MixedProfiles = []core.VarProfile{}
	nilFiles := full
	nilFiles.Project = &core.Project{Dir: s}
	return []core.PingDoc{full, bare, empty, nilFiles}
}

var pingStrings = []string{"", "plain", `q"b\s/`, "a && b <c> 'd'", "\x00\x01\b\f\n\r\t\x1f\x7f", "é ☃ 𝄞",
	"\xff\xfe bad \xc3", "\u2028\u2029", "\xe2\x80", "\xed\xa0\x80 surrogate", "\uFFFD"}

// The hand-written document is encoding/json's, byte for byte.
func TestPingJSONAsEncoding(t *testing.T) {
	for _, s := range pingStrings {
		checkAsEncoding(t, s, pingDocs(s), pingJSON)
	}
}

func FuzzPingJSON(f *testing.F) {
	for _, s := range pingStrings {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkAsEncoding(t, s, pingDocs(s), pingJSON) })
}

// checkAsEncoding holds write(doc) to encoding/json's indented document
// for each of docs, made with the string s.
func checkAsEncoding[T any](t *testing.T, s string, docs []T, write func(T) []byte) {
	t.Helper()
	for i, doc := range docs {
		want, err := jsondoc.Encode(doc, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if got := write(doc); string(got) != string(want) {
			t.Fatalf("doc %d with %q:\n got %s\nwant %s", i, s, got, want)
		}
	}
}

// pingJSON writes every field the document's types have: one added there
// fails here until pingJSON (and pingDocs) write it too.
func TestPingJSONKnowsEveryField(t *testing.T) {
	want := map[reflect.Type][]string{
		reflect.TypeFor[core.PingDoc]():    {"OK", "Name", "Version", "SwitcherProfile", "Capabilities", "ConfigRoot", "Scope", "Project", "Policy", "Trust", "MixedProfiles"},
		reflect.TypeFor[core.Profile]():    {"Active", "Provider", "Profile"},
		reflect.TypeFor[core.ConfigRoot](): {"Path", "Source"},
		reflect.TypeFor[core.Scope]():      {"Kind", "Path", "Root", "Profile"},
		reflect.TypeFor[core.Project]():    {"Dir", "Files", "Source", "Owner", "paths"},
		reflect.TypeFor[core.PolicyRef]():  {"Path"},
		reflect.TypeFor[core.TrustState](): {"State", "Command", "Error"},
		reflect.TypeFor[core.VarProfile](): {"Variable", "Provider", "Profile"},
	}
	for typ, fields := range want {
		var got []string
		for f := range typ.Fields() {
			got = append(got, f.Name)
		}
		if !reflect.DeepEqual(got, fields) {
			t.Errorf("%v has fields %v, pingJSON knows %v: teach pingJSON (commands/ping_json.go) the change", typ, got, fields)
		}
	}
}
