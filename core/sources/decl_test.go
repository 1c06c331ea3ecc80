package sources

import "testing"

func TestParseDecl(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Decl
	}{
		{"https://github.com/acme/charter-library.git", Decl{Name: "charter-library", URL: "https://github.com/acme/charter-library.git"}},
		{"git@github.com:acme/Team_Lib.git#ref=v3&path=team/lib", Decl{Name: "team-lib", URL: "git@github.com:acme/Team_Lib.git", Ref: "v3", Path: "team/lib"}},
		{"/srv/git/rules#name=house&ref=release/2026", Decl{Name: "house", URL: "/srv/git/rules", Ref: "release/2026"}},
		{"file:///x/y/lib/#path=/a/", Decl{Name: "lib", URL: "file:///x/y/lib/", Path: "a"}},
	} {
		got, err := ParseDecl(c.in)
		if err != nil || got != c.want {
			t.Errorf("ParseDecl(%q) = %+v, %v; want %+v", c.in, got, err, c.want)
			continue
		}
		back, err := ParseDecl(got.String())
		if err != nil || back != got {
			t.Errorf("round trip of %q: %q gives %+v, %v", c.in, got.String(), back, err)
		}
	}
	for _, bad := range []string{
		"", "-uhttps://x", "ext::sh -c evil", "https://x/y#ref=..", "https://x/y#ref=-x",
		"https://x/y#path=../up", "https://x/y#path=a/../b", "https://x/y#tag=v1", "https://x/y#ref=a&ref=b",
		"https://x/y#name=Bad_Name", "https://x/y#name=" + string(make([]byte, 0)) + "a--b",
	} {
		if d, err := ParseDecl(bad); err == nil {
			t.Errorf("ParseDecl(%q) = %+v, want an error", bad, d)
		}
	}
}

func TestItemOf(t *testing.T) {
	for in, want := range map[string][2]string{
		"rules/style.md":           {"rule", "style"},
		"skills/deploy/SKILL.md":   {"skill", "deploy"},
		"skills/deploy/bin/run.sh": {"skill", "deploy"},
		"commands/ship.md":         {"command", "ship"},
		"subagents/review.md":      {"subagent", "review"},
		"rules/nested/x.md":        {"file", "rules/nested/x.md"},
		"README.md":                {"file", "README.md"},
	} {
		if k, n := itemOf(in); k != want[0] || n != want[1] {
			t.Errorf("itemOf(%q) = %s %s, want %v", in, k, n, want)
		}
	}
}
