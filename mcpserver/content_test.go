package mcpserver

import (
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/agentkit/charter/core/agents"
	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/session"
)

// contentWorld is a project (the client's directory) whose rules are
// scoped by globs, one without globs, one disabled, and a scope command.
func contentWorld(t *testing.T) *env {
	t.Helper()
	e := newEnv(t)
	rules := filepath.Join(e.wd, ".charter", "rules")
	e.write(t, filepath.Join(e.wd, ".charter", "settings.yaml"), "rules:\n  disabled: [off-go]\n")
	e.write(t, filepath.Join(rules, "always.md"), "---\ndescription: Everywhere\n---\nBe kind.\n")
	e.write(t, filepath.Join(rules, "go.md"), "---\ndescription: Go\nglobs: [\"**/*.go\", \"go.mod\"]\n---\ngofmt.\n")
	e.write(t, filepath.Join(rules, "api-go.md"), "---\ndescription: API\nglobs: [\"api/**/*.go\"]\n---\nVersion it.\n")
	e.write(t, filepath.Join(rules, "web.md"), "---\ndescription: Web\nglobs: [\"web/**/*.{ts,tsx}\"]\n---\nTyped.\n")
	e.write(t, filepath.Join(rules, "off-go.md"), "---\ndescription: Disabled\nglobs: [\"**/*.go\"]\n---\nNo.\n")
	e.write(t, filepath.Join(e.scope.Path, "commands", "ship.md"), "---\ndescription: Ship it\nargument-hint: VERSION\n---\nShip $ARGUMENTS.\n")
	return e
}

func names(items []PageItem) []string {
	out := []string{}
	for _, it := range items {
		out = append(out, it.Name)
	}
	return out
}

// rules_list with a path returns exactly the rules in effect whose globs
// match it, and those without globs.
func TestRulesListPath(t *testing.T) {
	e := contentWorld(t)
	cs := connect(t, e.server(), newClient(noRoots), "")
	cases := []struct {
		path string
		want []string
	}{
		{"", []string{"always", "api-go", "go", "off-go", "web"}},
		{"main.go", []string{"always", "go"}},
		{"api/v1/user.go", []string{"always", "api-go", "go"}},
		{filepath.Join(e.wd, "api", "x.go"), []string{"always", "api-go", "go"}},
		{"go.mod", []string{"always", "go"}},
		{"web/src/app.tsx", []string{"always", "web"}},
		{"web/src/app.js", []string{"always"}},
		{"README.md", []string{"always"}},
	}
	for _, c := range cases {
		var got ItemList
		structured(t, call(t, cs, "rules_list", map[string]any{"path": c.path}), &got)
		if n := names(got.Items); !reflect.DeepEqual(n, c.want) {
			t.Errorf("rules_list %q = %v, want %v", c.path, n, c.want)
		}
	}
	// A path outside the project is refused, with the CLI's code.
	res := call(t, cs, "rules_list", map[string]any{"path": filepath.Join(filepath.Dir(e.wd), "elsewhere.go")})
	if !res.IsError || toolErr(t, res)["code"] != "outside_project" {
		t.Errorf("outside path: %s", coretest.ToolText(res))
	}
}

func TestContentTools(t *testing.T) {
	e := contentWorld(t)
	cs := connect(t, e.server(), newClient(noRoots), "")
	var list ItemList
	structured(t, call(t, cs, "commands_list", map[string]any{}), &list)
	if len(list.Items) != 1 || list.Items[0].Name != "ship" || list.Items[0].ArgHint != "VERSION" || list.Items[0].Layer != "scope" {
		t.Errorf("commands_list %+v", list.Items)
	}
	shipSet := list.ReceiverSets[list.Items[0].ReceiverSet]
	var cmd session.ContentBody
	structured(t, call(t, cs, "command_get", map[string]any{"name": "ship"}), &cmd)
	var withCommands []string // every agent with a user-level place for commands
	for _, a := range agents.Default() {
		if a.User.Commands.Dir != "" {
			withCommands = append(withCommands, a.Name)
		}
	}
	if cmd.Body != "Ship $ARGUMENTS.\n" || cmd.State != "active" || !reflect.DeepEqual(cmd.ReceivedBy, withCommands) || withCommands[0] != "claude" {
		t.Errorf("command_get %+v", cmd)
	}
	if !reflect.DeepEqual(shipSet, withCommands) || len(list.ReceiverSets) != 1 {
		t.Errorf("commands_list receivers %v in %v, want %v", list.Items[0].ReceiverSet, list.ReceiverSets, withCommands)
	}
	var rule session.ContentBody
	structured(t, call(t, cs, "rule_get", map[string]any{"name": "off-go"}), &rule)
	if rule.State != "disabled" || len(rule.ReceivedBy) != 0 || rule.Body != "No.\n" {
		t.Errorf("rule_get %+v", rule)
	}
	res := call(t, cs, "skill_get", map[string]any{"name": "nope"})
	if !res.IsError || toolErr(t, res)["code"] != "not_found" {
		t.Errorf("skill_get of a missing skill: %s", coretest.ToolText(res))
	}
	for _, tool := range []string{"skills_list", "subagents_list"} {
		structured(t, call(t, cs, tool, map[string]any{}), &list)
		if list.Items == nil || len(list.Items) != 0 {
			t.Errorf("%s %+v", tool, list.Items)
		}
	}
}

// Items name their source file origin, as settings documents do, in the
// structured content and in the tool's published output schema.
func TestContentSaysOrigin(t *testing.T) {
	e := contentWorld(t)
	cs := connect(t, e.server(), newClient(noRoots), "")
	var got struct {
		Items []map[string]any `json:"items"`
	}
	structured(t, call(t, cs, "rules_list", map[string]any{}), &got)
	if len(got.Items) == 0 {
		t.Fatal("no items")
	}
	for _, it := range got.Items {
		if o, _ := it["origin"].(string); o == "" || it["path"] != nil {
			t.Errorf("item %v: origin %q, path %v", it["name"], o, it["path"])
		}
	}
	var item map[string]any
	structured(t, call(t, cs, "rule_get", map[string]any{"name": "always"}), &item)
	if o, _ := item["origin"].(string); o != filepath.Join(e.wd, ".charter", "rules", "always.md") || item["path"] != nil {
		t.Errorf("rule_get: origin %q, path %v", o, item["path"])
	}
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools.Tools {
		if tool.Name != "rules_list" {
			continue
		}
		out, _ := json.Marshal(tool.OutputSchema)
		var s struct {
			Properties struct {
				Items struct {
					Items struct {
						Properties map[string]any `json:"properties"`
					} `json:"items"`
				} `json:"items"`
			} `json:"properties"`
		}
		if err := json.Unmarshal(out, &s); err != nil {
			t.Fatal(err)
		}
		if p := s.Properties.Items.Items.Properties; p["origin"] == nil || p["path"] != nil {
			t.Errorf("rules_list output schema: item properties %v", p)
		}
	}
}

// A kind's kept list follows the settings: disabling a rule in a running
// server shows in the next list, and so does enabling it again.
func TestContentListFollowsSelection(t *testing.T) {
	e := contentWorld(t)
	be := e.backend()
	be.cache().Now = func() time.Time { return time.Now().Add(time.Hour) } // the files were just written
	srv := New(be, Options{Version: "1.2.3-test", Getwd: e.sys.Getwd, Paths: e.sys.Paths, Message: e.sys.ErrorMessage})
	cs := connect(t, srv, newClient(noRoots), "")
	state := func() (string, []string) {
		var l ItemList
		structured(t, call(t, cs, "rules_list", map[string]any{}), &l)
		for _, it := range l.Items {
			if it.Name == "always" {
				return it.State, l.ReceiverSets[it.ReceiverSet]
			}
		}
		t.Fatal("no rule always")
		return "", nil
	}
	settings := filepath.Join(e.wd, ".charter", "settings.yaml")
	for _, c := range []struct{ disabled, want string }{{"[off-go]", "active"}, {"[off-go, always]", "disabled"}, {"[off-go]", "active"}} {
		e.write(t, settings, "rules:\n  disabled: "+c.disabled+"\n")
		if st, to := state(); st != c.want || (len(to) == 0) != (c.want == "disabled") {
			t.Errorf("disabled %s: always is %s, received by %v; want %s", c.disabled, st, to, c.want)
		}
	}
	// The same kept list cut differently is another page.
	for _, limit := range []int{1, 2, 1} {
		var l ItemList
		structured(t, call(t, cs, "rules_list", map[string]any{"limit": limit}), &l)
		if len(l.Items) != limit || l.Total != 5 {
			t.Errorf("limit %d: %d items of %d", limit, len(l.Items), l.Total)
		}
	}
}
