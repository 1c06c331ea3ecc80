package apply

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/settings"
)

// Refused, config.yaml named, nothing written: what charter cannot edit
// line by line under extensions.
func TestGooseRefuses(t *testing.T) {
	for name, tc := range map[string]struct{ data, says string }{
		"not-yaml": {"extensions: {mine\n", "not YAML charter can read"},
		"flow":     {"GOOSE_MODEL: m\nextensions: {mine: {type: stdio, cmd: my-mcp}}\n", "written { … } on one line"},
		"anchor":   {"extensions:\n  a: &base\n    type: stdio\n    cmd: my-mcp\n  b: *base\n", "anchors or aliases"},
		"tab":      {"extensions:\n  mine:\n    type: stdio\t# mine\n    cmd: my-mcp\n", "holds a tab"},
		"not-map":  {"extensions: [mine]\n", "not a mapping of extensions"},
	} {
		t.Run(name, func(t *testing.T) {
			sys, snap, proj, base := govSetup(t, LevelUser)
			file := filepath.Join(base, ".config", "goose", "config.yaml")
			coretest.WriteFile(t, file, tc.data)
			full, err := PlanAll(context.Background(), sys, snap, Request{Agents: []string{"goose"}, Project: proj})
			if err == nil {
				_, err = RunAll(context.Background(), sys, full, false)
			}
			var je *MCPJSONError
			if err == nil || !errors.As(err, &je) || !strings.Contains(err.Error(), tc.says) || !strings.Contains(err.Error(), "config.yaml") {
				t.Errorf("apply: %v, want a refusal naming config.yaml and saying %q", err, tc.says)
			}
			if got, _ := os.ReadFile(file); string(got) != tc.data {
				t.Errorf("config.yaml changed:\n%s", got)
			}
		})
	}
}

// A config.yaml without extensions (or with an empty extensions:) gets
// charter's block; uninstall gives the user's bytes back, the key
// charter made included.
func TestGooseAddsAndRemoves(t *testing.T) {
	for name, tc := range map[string]struct{ data, want string }{
		"no-key": {"GOOSE_MODEL: m # mine\n",
			"GOOSE_MODEL: m # mine\nextensions:\n  notes:\n    name: \"notes\"\n"},
		"empty-key": {"extensions:   # later\nGOOSE_MODEL: m\n",
			"extensions:   # later\n  notes:\n    name: \"notes\"\n"},
	} {
		t.Run(name, func(t *testing.T) {
			sys, snap, proj, base := govSetup(t, LevelUser)
			file := filepath.Join(base, ".config", "goose", "config.yaml")
			coretest.WriteFile(t, file, tc.data)
			req := Request{Agents: []string{"goose"}, Project: proj}
			full, err := PlanAll(context.Background(), sys, snap, req)
			if err != nil {
				t.Fatal(err)
			}
			govRunFull(t, sys, full)
			got, _ := os.ReadFile(file)
			if !strings.HasPrefix(string(got), tc.want) {
				t.Errorf("config.yaml after apply:\n%s\nwant it to start\n%s", got, tc.want)
			}
			govRound(t, sys, snap, proj, base, LevelUser, req, full, nil, map[string]string{".config/goose/config.yaml": tc.data})
		})
	}
}

// Goose reads config.yaml and .goosehints in $GOOSE_PATH_ROOT/config, or
// else in $XDG_CONFIG_HOME/goose: charter writes the file Goose reads, and
// nothing in ~/.config/goose.
func TestGooseFollowsItsVariables(t *testing.T) {
	for name, sub := range map[string]string{"GOOSE_PATH_ROOT": "config", "XDG_CONFIG_HOME": "goose"} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			sys, snap, proj, home := govSetup(t, LevelUser, coretest.Env(name+"="+root))
			dir := filepath.Join(root, sub)
			data := "GOOSE_MODEL: m # mine\n"
			coretest.WriteFile(t, filepath.Join(dir, "config.yaml"), data)
			req := Request{Agents: []string{"goose"}, Project: proj}
			full, err := PlanAll(context.Background(), sys, snap, req)
			if err != nil {
				t.Fatal(err)
			}
			govRunFull(t, sys, full)
			holds(t, filepath.Join(dir, "config.yaml"), "GOOSE_MODEL: m # mine\nextensions:\n  notes:\n")
			if _, err := os.Stat(filepath.Join(home, ".config", "goose")); err == nil {
				t.Errorf("charter wrote ~/.config/goose, which Goose does not read with %s set", name)
			}
			for _, tg := range full.Targets {
				if tg.Agent == "goose" && filepath.Dir(tg.Path) != dir {
					t.Errorf("goose target %s is outside %s", tg.Path, dir)
				}
			}
			govRound(t, sys, snap, proj, dir, LevelUser, req, full, nil, map[string]string{"config.yaml": data})
		})
	}
}

// An extension charter wrote and the user then changed is theirs: a
// second apply and uninstall leave it.
func TestGooseHandEditKept(t *testing.T) {
	sys, snap, proj, base := govSetup(t, LevelUser)
	file := filepath.Join(base, ".config", "goose", "config.yaml")
	coretest.WriteFile(t, file, "GOOSE_MODEL: m\n")
	req := Request{Agents: []string{"goose"}, Project: proj}
	full, err := PlanAll(context.Background(), sys, snap, req)
	if err != nil {
		t.Fatal(err)
	}
	govRunFull(t, sys, full)
	data, _ := os.ReadFile(file)
	edited := strings.Replace(string(data), "timeout: 300", "timeout: 600", 1)
	coretest.WriteFile(t, file, edited)
	u, err := PlanUninstall(context.Background(), sys, proj, filepath.Join(snap.Scope.Path, "state", "projection.json"), false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := RunAll(context.Background(), sys, u, false); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(file); string(got) != edited {
		t.Errorf("uninstall took out an extension the user changed:\n%s", got)
	}
}

// Goose's env: NAME: ${NAME} is env_keys, a literal stays in envs, any
// other reference cannot be written.
func TestGooseServerEnv(t *testing.T) {
	v, why, _ := gooseServer(settings.Server{Name: "n", Command: "n-mcp", Env: map[string]string{"TOKEN": "${TOKEN}", "MODE": "fast"}})
	b, _ := json.Marshal(v)
	if why != "" || !strings.Contains(string(b), `"env_keys":["TOKEN"]`) || !strings.Contains(string(b), `"envs":{"MODE":"fast"}`) {
		t.Errorf("gooseServer = %s (%q)", b, why)
	}
	for _, s := range []settings.Server{
		{Name: "n", Command: "n-mcp", Env: map[string]string{"TOKEN": "${OTHER}"}},
		{Name: "n", URL: "https://n.example/mcp", Headers: map[string]string{"Authorization": "Bearer ${TOKEN}"}},
	} {
		if _, why, _ := gooseServer(s); !strings.Contains(why, "no ${VAR} expansion") {
			t.Errorf("gooseServer(%+v) why %q, want unsupported", s, why)
		}
	}
	v, _, _ = gooseServer(settings.Server{Name: "r", URL: "https://r.example/mcp", Headers: map[string]string{"X-Team": "shop"}})
	b, _ = json.Marshal(v)
	if !strings.Contains(string(b), `"type":"streamable_http"`) || !strings.Contains(string(b), `"uri":"https://r.example/mcp"`) {
		t.Errorf("remote gooseServer = %s", b)
	}
}

// GooseDoc reads back what charter writes, in the shared shape, and
// leaves Goose's builtin extensions out.
func TestGooseDoc(t *testing.T) {
	doc, err := GooseDoc([]byte("extensions:\n  developer:\n    type: builtin\n  notes:\n    type: stdio\n    cmd: notes-mcp\n    args: [--stdio]\n    envs: {MODE: fast}\n    env_keys: [TOKEN]\n  far:\n    type: streamable_http\n    uri: https://far.example/mcp\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"far":{"url":"https://far.example/mcp"},"notes":{"args":["--stdio"],"command":"notes-mcp","env":{"MODE":"fast","TOKEN":"${TOKEN}"}}}`
	if got := string(doc["extensions"]); got != want {
		t.Errorf("GooseDoc extensions = %s\nwant %s", got, want)
	}
}

// An entry of charter's that Goose saved again (its own defaults added,
// args as a block list) is still charter's: a second apply leaves it,
// uninstall takes it out.
func TestGooseRewrittenByGoose(t *testing.T) {
	sys, snap, proj, base := govSetup(t, LevelUser)
	file := filepath.Join(base, ".config", "goose", "config.yaml")
	coretest.WriteFile(t, file, "GOOSE_MODEL: m\n")
	req := Request{Agents: []string{"goose"}, Project: proj}
	full, err := PlanAll(context.Background(), sys, snap, req)
	if err != nil {
		t.Fatal(err)
	}
	govRunFull(t, sys, full)
	saved := "GOOSE_MODEL: m\nextensions:\n  notes:\n    args:\n    - --stdio\n    available_tools: []\n    bundled: null\n    cmd: notes-mcp\n    description: ''\n    enabled: true\n    env_keys:\n    - NOTES_TOKEN\n    envs: {}\n    name: notes\n    timeout: 300\n    type: stdio\n"
	coretest.WriteFile(t, file, saved)
	govRound(t, sys, snap, proj, base, LevelUser, req, full, nil, map[string]string{".config/goose/config.yaml": "GOOSE_MODEL: m\n"})
}

// Adding charter's extension and taking it out again gives the file back
// byte for byte, whatever else it holds; or the file is refused whole.
func FuzzGooseStep(f *testing.F) {
	for _, seed := range []string{"", "GOOSE_MODEL: m\n", "extensions:\n", "extensions: # c\nx: 1\n",
		"extensions:\n    dev:\n        type: builtin\n\n    # c\n    mine: {cmd: x}\nGOOSE_MODE: auto", "extensions: {}\n", "extensions:\n  a: &x {cmd: y}\n  b: *x\n", "GOOSE_MODE: auto", "extensions:", "extensions:\n  dev:\n    type: builtin"} {
		f.Add(seed)
	}
	want, _, _ := gooseServer(settings.Server{Name: "notes", Command: "notes-mcp", Args: []string{"--stdio"}})
	f.Fuzz(func(t *testing.T, data string) {
		d, err := openYAML([]byte(data))
		if _, bad := GooseDoc([]byte(data)); err != nil || bad != nil {
			return // not YAML Goose reads either (a key twice)
		}
		k, _, _ := d.extensions()
		added, err := editYAML([]byte(data), gooseStep(map[string]any{"notes": want}, []string{"notes"}, nil, k == nil))
		if err != nil {
			return
		}
		doc, err := GooseDoc(added)
		if err != nil || !strings.Contains(string(doc["extensions"]), `"notes":{"args":["--stdio"],"command":"notes-mcp"}`) {
			t.Fatalf("after adding, %q reads %s (%v)", added, doc["extensions"], err)
		}
		back, err := editYAML(added, gooseStep(map[string]any{}, nil, []string{"notes"}, k == nil))
		if err != nil || string(back) != data {
			t.Fatalf("add then remove of %q gave %q (%v)", data, back, err)
		}
	})
}
