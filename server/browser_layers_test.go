package server

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/profile"
)

// The hub with a project and a policy: the banner names the project, the
// layer switch sends a save to the project's file, a locked field is
// read-only with the policy's reason, and an inherited value says from
// which layer it comes.
func TestBrowserLayers(t *testing.T) {
	p := newPage(t)
	m := coretest.New(t)
	sys, home := m.Sys, m.Home
	proj := filepath.Join(m.Dir, "shop")
	coretest.WriteFile(t, m.PolicyFile, "lock:\n  rules.tier: full\n")
	coretest.WriteFile(t, filepath.Join(proj, ".charter", "settings.yaml"), "# the team's\nworktrees.mode: off\n")
	root := filepath.Join(home, "root")
	sc, err := profile.ResolveScope(sys, &root)
	if err != nil {
		t.Fatal(err)
	}
	s, project := openServer(t, sys, sc, proj, 0)
	h := serveHub(t, s)
	p.open(h.HubURL())

	// The banner names the project.
	if got := p.text("#scope-project"); !strings.Contains(got, proj) || !strings.HasPrefix(got, "Project ") {
		t.Errorf("project banner %q", got)
	}
	// The locked field is read-only and says why.
	if !js[bool](p, `document.querySelector('.field[data-key="rules.tier"] select').disabled`) {
		t.Error("the locked rules.tier can be changed")
	}
	if got := p.text(`.field[data-key="rules.tier"] .field-lock`); !strings.HasSuffix(got, "Locked to full by "+m.PolicyFile) {
		t.Errorf("lock text %q", got)
	}
	// The project's value is inherited, and says from where.
	if got := p.text(`.field[data-key="worktrees.mode"] .field-origin`); got != "Inherited from the project settings.yaml" {
		t.Errorf("worktrees.mode origin %q", got)
	}

	// The layer switch: scope by default, then the project's file.
	if !js[bool](p, `document.querySelector('#layer-scope').checked`) {
		t.Error("the scope is not the default target")
	}
	if got := p.text("#layer-file"); !strings.HasPrefix(got, "Creates ") || !strings.HasSuffix(got, filepath.Join(root, "settings.yaml")) {
		t.Errorf("target file %q", got)
	}
	p.do(chromedp.Click(chromedp.ID("layer-project")))
	if got := p.text("#layer-file"); got != "Writes "+project.SettingsPath() {
		t.Errorf("target file after the switch %q", got)
	}
	if got := p.text(`.field[data-key="worktrees.mode"] .field-origin`); got != "Set in settings.yaml" {
		t.Errorf("worktrees.mode origin with the project as target %q", got)
	}
	p.selectOption("agent.autonomy", "on")
	p.do(chromedp.Click(chromedp.ID("save")))
	p.wait("the save", `document.querySelector('#save-status').textContent === 'Saved 1 change'`)
	data, err := os.ReadFile(project.SettingsPath())
	if err != nil || !strings.Contains(string(data), `autonomy: "on"`) || !strings.Contains(string(data), "# the team's") {
		t.Errorf("project file %q %v", data, err)
	}
	if _, err := os.Stat(filepath.Join(root, "settings.yaml")); !os.IsNotExist(err) {
		t.Errorf("the scope file was written: %v", err)
	}
	if !js[bool](p, `document.querySelector('#layer-project').checked`) {
		t.Error("the target went back after the save")
	}
	p.shot("layers", fullPage)
}
