package gates

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/lazy"
)

// measure reads the coverage report of a coverage gate whose command
// passed and decides the gate on it.
func measure(cfg Config, res *Result) {
	fail := func(format string, args ...any) {
		res.Status = StatusFailed
		res.Message = fmt.Sprintf(format, args...)
	}
	report := cfg.Coverage.Report
	if strings.TrimSpace(report) == "" {
		fail("%s is empty: set it to the report file the coverage command writes (charter settings set --project %s cover.out)", reportKey, reportKey)
		return
	}
	path := report
	if !filepath.IsAbs(path) && cfg.Dir != "" {
		path = filepath.Join(cfg.Dir, path)
	}
	f, err := openReport(cfg, path)
	if err != nil && core.ErrorCode(err) != core.CodeInternal { // a FIFO, a device, too large, outside the project: the error says what
		fail("coverage report: %v", err)
		return
	}
	if err != nil {
		fail("read coverage report %s: %v", report, unwrapPath(err))
		return
	}
	defer f.Close()
	st, err := ParseReport(f)
	if err != nil {
		fail("coverage report %s: %v", report, err)
		return
	}
	minimum := cfg.Coverage.Min
	res.Coverage = &CoverageResult{Percent: st.ShownPercent(minimum), Min: minimum}
	what := fmt.Sprintf("coverage %s%% (%d of %d statements, %s)", res.Coverage.Percent, st.Covered, st.Total, formatNames.Get()[st.Format])
	if st.Meets(minimum) {
		res.Message = fmt.Sprintf("%s meets the minimum %s%%", what, minimum)
		return
	}
	fail("%s is below the minimum %s%%", what, minimum)
}

var formatNames = lazy.Value[map[string]string]{Make: func() map[string]string {
	return map[string]string{FormatGo: "Go cover profile", FormatLCOV: "LCOV", FormatCobertura: "Cobertura XML"}
}}

// unwrapPath drops the path an *os.PathError repeats.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
