package server

import (
	"bytes"
	"io"
	"net/http"
	"time"

	"github.com/agentkit/charter/core/gates"
	"github.com/agentkit/charter/core/session"
)

// runGates is POST /api/v1/gates/run: the gates of the served project, as
// `charter gate run --json` run there reports them: the settings of every
// layer the server serves (policy included), run in the project's root,
// else the server's working directory. The body is optional:
// {"gates":["tests","lint"]} runs only those. One run at a time: a second
// request while one is under way is 409 gate_running. A client that goes
// away cancels the run, and the gate's processes are killed.
func (s *Server) runGates(w http.ResponseWriter, r *http.Request) error {
	var req struct {
		Gates []string `json:"gates"`
	}
	if err := decodeOptional(r, &req); err != nil {
		return err
	}
	// The run may outlast the server's write timeout: a run has none (a
	// client that goes away cancels it instead).
	_ = http.NewResponseController(w).SetWriteDeadline(time.Time{})
	run, err := s.sess.RunGates(r.Context(), session.GateRequest{Gates: req.Gates, Once: &s.gateRun})
	if err != nil {
		return err
	}
	writeRaw(w, http.StatusOK, append(run.Report.JSON(), '\n'))
	return nil
}

// getGates is GET /api/v1/gates: the required gates of the served project
// that have no command, so that a run skips them, each with the command
// the project's files suggest where they give one away (the line doctor
// and `charter gate run` print).
func (s *Server) getGates(w http.ResponseWriter, r *http.Request) error {
	setup, err := s.sess.GateSetup(r.Context())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, struct {
		Unconfigured []gates.Unconfigured `json:"unconfigured"`
	}{setup.Config.Unconfigured()})
	return nil
}

// decodeOptional is decode for a body that may be empty.
func decodeOptional(r *http.Request, v any) error {
	data, err := io.ReadAll(r.Body)
	if err != nil || len(bytes.TrimSpace(data)) > 0 {
		r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(data), errReader{err}))
		return decode(r, v)
	}
	return nil
}

// errReader hands decode the read error that cut the body short.
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) {
	if e.err == nil {
		return 0, io.EOF
	}
	return 0, e.err
}
