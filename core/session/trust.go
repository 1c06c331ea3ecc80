package session

import (
	"context"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/gates"
	"github.com/agentkit/charter/core/settings"
	"github.com/agentkit/charter/core/trust"
)

// TrustDoc is the one trust document (SPEC §13) every skin renders, for
// every trust request: the project's root and trust state, the values that
// need trust with their hash, and after a revoke whether a record was
// removed.
type TrustDoc struct {
	gates.Trust
	// Owner is the uid of another user who owns the project, whose
	// ownership a trust accepts; absent for the user's own.
	Owner *int `json:"owner,omitempty"`
	// Revoked is set by a revoke only: false when the project was not trusted.
	Revoked *bool `json:"revoked,omitempty"`
}

// TrustRequest records the trust of the project's values.
type TrustRequest struct {
	// SHA256 is the hash of the values the user was shown (TrustState's);
	// when they changed since, nothing is recorded (code untrusted, with
	// the current document in the error's "trust"). nil: the values as
	// they are now, which the caller shows from the answer.
	SHA256        *string
	ConfirmShared bool
}

// TrustList is every trusted project.
type TrustList struct {
	Projects []trust.Entry `json:"projects"`
}

// trustTarget is the project a trust request is about, with its settings:
// a server's own project (its repository root before a file exists), else
// the one --project-dir, CHARTER_PROJECT_DIR or discovery finds, another
// user's included.
func (s *Session) trustTarget(ctx context.Context) (*core.Project, *settings.Snapshot, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	var p *core.Project
	var err error
	switch {
	case s.opts.Served:
		p, err = s.layersProject()
		if err == nil && p == nil {
			err = core.Errorf(core.CodeNotFound, "this server serves no project, so there is nothing to trust: start charter serve inside the project, or with --project-dir DIR")
		}
	case s.opts.NoProject:
		err = core.Errorf(core.CodeUsage, "--no-project leaves no project to trust: leave it out, or give --project-dir DIR")
	default:
		p, err = s.ProjectToTrust()
		if err == nil && p == nil {
			err = core.Errorf(core.CodeUsage, "no project here: run inside a project (a directory with .charter/settings.yaml) or give --project-dir DIR")
		}
	}
	if err != nil {
		return nil, nil, err
	}
	st, err := s.StoreFor(p)
	if err != nil {
		return nil, nil, err
	}
	snap, err := st.Read()
	return p, snap, err
}

// TrustState is the project's trust document: what it asks to run and
// whether the user trusts exactly that. It records nothing.
func (s *Session) TrustState(ctx context.Context) (TrustDoc, error) {
	p, snap, err := s.trustTarget(ctx)
	if err != nil {
		return TrustDoc{}, err
	}
	t, err := gates.TrustOf(s.Sys, snap)
	return TrustDoc{Trust: t, Owner: p.Owner}, err
}

// Trust records that the user trusts the project's values (those whose
// hash is req.SHA256, else the current ones) and returns the document.
func (s *Session) Trust(ctx context.Context, req TrustRequest) (TrustDoc, error) {
	p, snap, err := s.trustTarget(ctx)
	if err != nil {
		return TrustDoc{}, err
	}
	sha := ""
	if req.SHA256 != nil {
		sha = *req.SHA256
	} else {
		shown, err := gates.TrustOf(s.Sys, snap)
		if err != nil {
			return TrustDoc{}, err
		}
		sha = shown.SHA256
	}
	t, err := gates.TrustProject(s.Sys, snap, sha, p.Owner, req.ConfirmShared)
	doc := TrustDoc{Trust: t, Owner: p.Owner}
	if core.ErrorCode(err) == core.CodeUntrusted {
		return doc, &core.Error{Kind: core.CodeUntrusted, Msg: err.Error(), Extra: map[string]any{"trust": doc}}
	}
	return doc, err
}

// Revoke removes the project's trust record; the document says whether
// there was one, and the state the project is in now.
func (s *Session) Revoke(ctx context.Context, confirmShared bool) (TrustDoc, error) {
	p, snap, err := s.trustTarget(ctx)
	if err != nil {
		return TrustDoc{}, err
	}
	found, err := trust.Revoke(s.Sys, p.Dir, confirmShared)
	if err != nil {
		return TrustDoc{}, err
	}
	t, err := gates.TrustOf(s.Sys, snap)
	if t.Root == "" {
		t.Root = p.Dir
	}
	return TrustDoc{Trust: t, Owner: p.Owner, Revoked: &found}, err
}

// TrustedProjects lists the trusted projects; a trust file charter must
// not believe is an error, not an empty list, which would hide why.
func (s *Session) TrustedProjects(ctx context.Context) (TrustList, error) {
	if err := ctx.Err(); err != nil {
		return TrustList{}, err
	}
	es, err := trust.Entries(s.Sys)
	if err != nil {
		return TrustList{}, err
	}
	if bad := trust.FileProblem(s.Sys); bad != nil {
		return TrustList{}, bad
	}
	if es == nil {
		es = []trust.Entry{}
	}
	return TrustList{Projects: es}, nil
}
