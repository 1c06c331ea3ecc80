package commands

import (
	"reflect"
	"testing"

	"github.com/agentkit/charter/core/companion"
)

// detectDocs reach every branch of detectJSON; s is put in every string.
func detectDocs(s string) []companion.Detection {
	v, c := "1.2.3"+s, "npm i -g "+s
	return []companion.Detection{
		{Installed: true, Version: &v, Repo: "https://example.com/" + s, Dismissed: true},
		{InstallCommand: &c, Repo: s},
		{Installed: true, Version: &s, InstallCommand: &s, Repo: s},
		{},
	}
}

// The hand-written document is encoding/json's, byte for byte.
func TestDetectJSONAsEncoding(t *testing.T) {
	for _, s := range pingStrings {
		checkAsEncoding(t, s, detectDocs(s), detectJSON)
	}
}

func FuzzDetectJSON(f *testing.F) {
	for _, s := range pingStrings {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkAsEncoding(t, s, detectDocs(s), detectJSON) })
}

// detectJSON writes every field of the document: one added to
// companion.Detection fails here until detectJSON writes it too.
func TestDetectJSONKnowsEveryField(t *testing.T) {
	want := []string{"Installed", "Version", "InstallCommand", "Repo", "Dismissed"}
	var got []string
	for f := range reflect.TypeFor[companion.Detection]().Fields() {
		got = append(got, f.Name)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("companion.Detection has fields %v, detectJSON knows %v: teach detectJSON (commands/detect_json.go) the change", got, want)
	}
}
