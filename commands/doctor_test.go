package commands

import (
	"bytes"
	"strings"
	"testing"

	"github.com/agentkit/charter/core/doctor"
)

func TestPrintDoctor(t *testing.T) {
	rep := doctor.Report{Checks: []doctor.Check{
		{Label: "Profile", Status: doctor.OK, Message: "none active"},
		{Label: "Settings", Status: doctor.Fail, Message: "/s.yaml:2: bad\n/s.yaml:5: worse", Fix: "edit it"},
		{Label: "Server", Status: doctor.Warn, Message: "stale", Fix: "remove it"},
	}}
	var plain, coloured bytes.Buffer
	printDoctor(&plain, rep, false)
	want := `ok    Profile   none active
fail  Settings  /s.yaml:2: bad
                /s.yaml:5: worse
                fix: edit it
warn  Server    stale
                fix: remove it

1 check failed, 1 warning.
`
	if plain.String() != want {
		t.Errorf("plain:\n%s\nwant:\n%s", plain.String(), want)
	}
	printDoctor(&coloured, rep, true)
	for _, s := range []string{"\x1b[32mok  \x1b[0m", "\x1b[1;31mfail\x1b[0m", "\x1b[33mwarn\x1b[0m"} {
		if !strings.Contains(coloured.String(), s) {
			t.Errorf("coloured output lacks %q:\n%q", s, coloured.String())
		}
	}
}
