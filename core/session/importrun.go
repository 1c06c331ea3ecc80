package session

import (
	"context"
	"fmt"
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/apply"
	"github.com/agentkit/charter/core/importer"
)

// ImportReport is import's one document (`import --json`): every item
// found, with what became of it, and the report of the projection that
// followed.
type ImportReport struct {
	*Imported
	DryRun bool              `json:"dryRun"`
	Apply  *apply.FullReport `json:"apply,omitempty"`
	// Peer is what is left of ruler or rulesync beside charter, and
	// Retired whether --retire removed it.
	Peer    *PeerLeft `json:"peer,omitempty"`
	Retired bool      `json:"retired,omitempty"`
	// Pending are the files a `charter apply` of the level would write
	// next: import writes only the agent's it read from.
	Pending []string `json:"pending,omitempty"`
}

// Import is the whole import workflow: the sources written, a peer's
// leftovers retired (req.Retire), the projection that takes the native
// files over, what a plain apply would still write, and what is left of a
// peer. A projection that stopped, or an import where every item clashed,
// returns the report with the error: the skin shows the report, then the
// error. Any other error returns a nil report.
func (s *Session) Import(ctx context.Context, req ImportRequest) (*ImportReport, error) {
	if req.Retire && (!importer.Peer(req.From) || !req.Project) {
		return nil, core.Errorf(core.CodeUsage, "--retire removes what is left of ruler or rulesync in a repository: use it as `charter import --from ruler|rulesync --project --retire`")
	}
	res, err := s.importSources(ctx, req)
	if err != nil {
		return nil, err
	}
	rep := &ImportReport{Imported: res, DryRun: req.DryRun}
	if req.Retire && !req.DryRun {
		// Before the projection: charter's files then take the places the
		// peer's held, and the agents read each item once.
		if rep.Peer, err = s.PeerLeft(ctx, req.From); err != nil {
			return nil, err
		}
		if err := s.Retire(ctx, rep.Peer, req.ConfirmShared); err != nil {
			return nil, err
		}
		rep.Retired = !rep.Peer.Empty()
	}
	if !req.DryRun && res.Projects() {
		if err := s.importProject(ctx, req, rep); err != nil {
			return rep, err // the sources stay: the report says what was imported
		}
	}
	if importer.Peer(req.From) && req.Project && !rep.Retired {
		if rep.Peer, err = s.PeerLeft(ctx, req.From); err != nil {
			return nil, err
		}
	}
	if res.Count(importer.StateImported) == 0 && res.Count(importer.StateClash) > 0 && !req.Retire {
		if len(res.Adopted) > 0 {
			return rep, core.Errorf(core.CodeItemExists, "nothing was imported: every item clashes with an existing source, kept as it is (%d native file(s) with the same body taken over)", len(res.Adopted))
		}
		return rep, core.Errorf(core.CodeItemExists, "nothing was imported: every item clashes with an existing source, kept as it is")
	}
	return rep, nil
}

// importProject is the apply that follows an import: the level's agents
// and the ones read from, taking over the native files just imported;
// then what a plain apply of the level would still write.
func (s *Session) importProject(ctx context.Context, req ImportRequest, rep *ImportReport) error {
	areq := rep.Imported.Apply
	areq.ConfirmShared, areq.Confirm = req.ConfirmShared, req.Confirm
	done, err := s.Apply(ctx, areq)
	if err != nil {
		again := "charter apply"
		if req.Project {
			again += " --project"
		}
		if len(areq.Agents) > 0 { // import's agents alone, as it planned
			again += " --agent " + strings.Join(areq.Agents, ",")
		}
		if rep.Count(importer.StateImported) == 0 {
			return fmt.Errorf("taking over the native files of the same body stopped (run `%s` once it is solved): %w", again, err)
		}
		return fmt.Errorf("%d source(s) written in %s; projecting them stopped (run `%s` once it is solved): %w", rep.Count(importer.StateImported), rep.SourceDir, again, err)
	}
	rep.Apply = &done.FullReport
	rep.Pending = s.pending(ctx, req.Project)
	return nil
}

// pending lists what a plain apply of the level would write now, from a
// dry run: best effort, since the import itself succeeded.
func (s *Session) pending(ctx context.Context, project bool) []string {
	rep, err := s.Apply(ctx, ApplyRequest{Project: project, DryRun: true})
	if err != nil {
		return nil
	}
	var out []string
	for _, t := range rep.Targets {
		if t.State != "current" && t.State != "skipped" {
			out = append(out, t.Path)
		}
	}
	for _, f := range rep.Files {
		if f.Path != nil && f.State != "current" && f.State != "unsupported" {
			out = append(out, *f.Path)
		}
	}
	return out
}
