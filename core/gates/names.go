package gates

import (
	"slices"
	"strings"
	"sync/atomic"

	"github.com/agentkit/charter/core"
)

// ParseNames reads a --gate value: names separated by commas, in any
// order, each once. The result keeps run order; "" means all (nil). An
// empty name inside a list ("tests,") is refused as an unknown gate.
func ParseNames(s string) ([]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	return ParseList(strings.Split(s, ","))
}

// ParseList reads the gates a request names (the HTTP API's and MCP's
// "gates"): each a known gate, blanks around it aside; "" is refused as an
// unknown gate, never taken for all. The result keeps run order, each
// once; an empty list means all (nil). Every skin returns its error as it
// is (invalid_value), so the CLI, the HTTP API and MCP say the same.
func ParseList(names []string) ([]string, error) {
	all := Names()
	var out []string
	for _, part := range names {
		n := strings.TrimSpace(part)
		if !slices.Contains(all, n) {
			return nil, core.Errorf(core.CodeInvalidValue, "unknown gate %q: choose among %s", n, strings.Join(all, ", "))
		}
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	slices.SortFunc(out, func(a, b string) int { return slices.Index(all, a) - slices.Index(all, b) })
	return out, nil
}

// OneRun lets one run of the gates go at a time in a process: the HTTP
// server's and the MCP server's. Its zero value is ready.
type OneRun struct{ busy atomic.Bool }

// Begin claims the run, or fails with gate_running while another holds
// it; end releases it.
func (o *OneRun) Begin() (end func(), err error) {
	if !o.busy.CompareAndSwap(false, true) {
		return nil, core.Errorf(core.CodeGateRunning, "the gates are already running here: wait for that run to finish, then try again")
	}
	return func() { o.busy.Store(false) }, nil
}
