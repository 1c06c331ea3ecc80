package commands

import (
	"bytes"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/afero"
)

// `charter man` renders without a warning in groff (when installed) and
// holds every command and every help topic; without groff its roff is
// checked line by line: no text line starts with a control character and
// no character groff cannot read is left unescaped.
func TestManPageRenders(t *testing.T) {
	var out, errb bytes.Buffer
	if code := Main(t.Context(), Build{Version: "1.2.3"}, []string{"man"}, strings.NewReader(""), &out, &errb, nil, afero.NewMemMapFs()); code != 0 {
		t.Fatalf("charter man: exit %d: %s", code, errb.String())
	}
	page := out.String()
	for _, want := range []string{".TH CHARTER 1", ".SH ENVIRONMENT", ".SH EXIT STATUS", ".SH FILES", ".SH LAYERS",
		`.SS "charter settings set KEY VALUE [flags]"`, `.SS "charter gate run [flags]"`, `AGENTKIT_CONFIG_HOME`} {
		if !strings.Contains(page, want) {
			t.Errorf("the man page lacks %q", want)
		}
	}
	for i, line := range strings.Split(page, "\n") {
		for _, r := range line {
			if r > 127 {
				t.Errorf("line %d has %q, which groff cannot read: %s", i+1, r, line)
			}
		}
		if strings.HasPrefix(line, "'") || strings.HasPrefix(line, ".") && !strings.HasPrefix(line, ".TH ") &&
			!strings.HasPrefix(line, ".SH ") && !strings.HasPrefix(line, ".SS ") && !strings.HasPrefix(line, ".TP") &&
			!strings.HasPrefix(line, ".PP") && !strings.HasPrefix(line, ".B ") && !strings.HasPrefix(line, ".I ") &&
			line != ".nf" && line != ".fi" {
			t.Errorf("line %d starts with a control character: %s", i+1, line)
		}
	}
	groff, err := exec.LookPath("groff")
	if err != nil {
		t.Log("groff is not installed: the roff was checked by its lines only")
		return
	}
	cmd := exec.Command(groff, "-man", "-Tutf8", "-ww")
	cmd.Stdin = strings.NewReader(page)
	var text, warn bytes.Buffer
	cmd.Stdout, cmd.Stderr = &text, &warn
	if err := cmd.Run(); err != nil || warn.Len() > 0 {
		t.Fatalf("groff: %v\n%s", err, warn.String())
	}
	// Bold and underline are overstruck (c BS c); hyphens may be U+2010.
	plain := regexp.MustCompile(".\b").ReplaceAllString(text.String(), "")
	plain = strings.NewReplacer("\u2010", "-", "\u2212", "-").Replace(plain)
	for _, want := range []string{"charter settings set KEY VALUE [flags]", "--config-root=PATH", "AGENT_SWITCH_HOME", "dismissals.json"} {
		if !strings.Contains(plain, want) {
			t.Errorf("the rendered page lacks %q", want)
		}
	}
}
