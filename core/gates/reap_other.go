//go:build !linux

package gates

// Outside Linux there is no child subreaper: a gate's process that leaves
// its group (setsid) is not ended with the gate (docs/gates.md).

func gateReaper() (mark string, end func()) { return "", func() {} }
func endEscaped(string) bool                { return false }
func reapGroup(int)                         {}
