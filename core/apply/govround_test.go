package apply

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/settings"
)

// govRound checks one applied governance plan the way every golden test
// does: each agent's files and unsupported rules against its golden, a
// second apply that changes nothing, and an uninstall after which every
// native file is as the user wrote it. It returns the files charter made
// for agents (those not in native), for the caller's own checks.
func govRound(t *testing.T, sys *core.System, snap *settings.Snapshot, proj *core.Project, base, level string, req Request, full *Full, agents []string, native map[string]string) (made []string) {
	t.Helper()
	byAgent := map[string][]string{}
	for _, tg := range full.Targets {
		if !tg.Governs() || !slices.Contains(agents, tg.Agent) {
			continue
		}
		rel, _ := filepath.Rel(base, tg.Path)
		rel = filepath.ToSlash(rel)
		data, err := os.ReadFile(tg.Path)
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		if _, mine := native[rel]; !mine {
			made = append(made, rel)
		}
		byAgent[tg.Agent] = append(byAgent[tg.Agent], "== "+rel+" ==\n"+string(data))
	}
	for _, u := range full.Unsupported {
		byAgent[u.Agent] = append(byAgent[u.Agent], "unsupported: "+u.What+" ("+u.Reason+")\n")
	}
	for _, a := range agents {
		slices.Sort(byAgent[a])
		coretest.Golden(t, filepath.Join("testdata", "gov", level+"-"+a+".golden"), []byte(strings.Join(byAgent[a], "")))
	}
	again, err := PlanAll(context.Background(), sys, snap, req)
	if err != nil {
		t.Fatal(err)
	}
	for _, tg := range again.Targets {
		if tg.Governs() && !tg.Current() {
			t.Errorf("a second apply would change %s", tg.Path)
		}
	}
	u, err := PlanUninstall(context.Background(), sys, proj, filepath.Join(snap.Scope.Path, "state", "projection.json"), false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := RunAll(context.Background(), sys, u, false); err != nil {
		t.Fatal(err)
	}
	for rel, want := range native {
		got, err := os.ReadFile(filepath.Join(base, filepath.FromSlash(rel)))
		if err != nil || string(got) != want {
			t.Errorf("after uninstall %s is\n%s\nwant (as the user wrote it)\n%s (%v)", rel, got, want, err)
		}
	}
	return made
}

// govGoldenLevels writes each level's native files, applies for agents
// and checks the round (govRound) at both levels.
func govGoldenLevels(t *testing.T, agents []string, native map[string]map[string]string) {
	for _, level := range []string{LevelUser, LevelProject} {
		t.Run(level, func(t *testing.T) {
			sys, snap, proj, base := govSetup(t, level)
			for rel, data := range native[level] {
				coretest.WriteFile(t, filepath.Join(base, filepath.FromSlash(rel)), data)
			}
			req := Request{Agents: agents, Project: proj}
			full, err := PlanAll(context.Background(), sys, snap, req)
			if err != nil {
				t.Fatal(err)
			}
			govRunFull(t, sys, full)
			govRound(t, sys, snap, proj, base, level, req, full, agents, native[level])
		})
	}
}
