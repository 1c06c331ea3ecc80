package mcpserver

import (
	"bufio"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// linesOver runs srv over t, writes the input one line at a time and
// returns the reply to each call, read before the next line goes.
func linesOver(t *testing.T, run func(in io.Reader, out io.Writer) error, input []string) []string {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	errc := make(chan error, 1)
	go func() {
		err := run(inR, outW)
		outW.Close()
		errc <- err
	}()
	var lines []string
	r := bufio.NewReader(outR)
	for _, l := range input {
		if _, err := io.WriteString(inW, l+"\n"); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(l, `"id"`) {
			line, err := r.ReadString('\n')
			if err != nil {
				t.Fatal(err)
			}
			lines = append(lines, strings.TrimSuffix(line, "\n"))
		}
	}
	inW.Close()
	io.Copy(io.Discard, r)
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	return lines
}

// A result that reaches charter's stdio transport as a stand-in is put
// back byte for byte as the SDK's own transport writes the whole result,
// one call after another, a failed call included; no stand-in is left.
func TestHeldResultsAreTheSDKs(t *testing.T) {
	e := newEnv(t)
	for i, d := range []string{`Say "it" <plainly> & \ é`, "Tabs\tand \u2028 too"} {
		e.write(t, filepath.Join(e.scope.Path, "rules", "r"+itoa(i)+".md"), "---\ndescription: "+strings.ReplaceAll(d, `"`, `\"`)+"\n---\nBody.\n")
	}
	input := []string{initLine, initedLine,
		callLine(1, "rules_list", `{}`), callLine(2, "rules_list", `{"limit":1}`), callLine(3, "status", `{}`),
		callLine(4, "settings_get", `{"key":"no.such.key"}`), callLine(5, "rules_list", `{}`)}
	ctx := watched(t)
	srv := e.server()
	ours := linesOver(t, func(in io.Reader, out io.Writer) error {
		return srv.Run(ctx, &StdioTransport{In: in, Out: out})
	}, input)
	sdk := linesOver(t, func(in io.Reader, out io.Writer) error {
		return srv.MCP().Run(ctx, &mcp.IOTransport{Reader: io.NopCloser(in), Writer: nopWriteCloser{out}})
	}, input)
	if len(ours) != 6 || len(sdk) != len(ours) {
		t.Fatalf("%d lines over charter's transport, %d over the SDK's, want 6:\n%s", len(ours), len(sdk), strings.Join(ours, "\n"))
	}
	for i := range ours {
		if ours[i] != sdk[i] {
			t.Errorf("line %d:\n got %s\nwant %s", i, ours[i], sdk[i])
		}
		if strings.Contains(ours[i], `charter:result`) {
			t.Errorf("line %d holds a stand-in: %s", i, ours[i])
		}
	}
	if !strings.Contains(ours[1], `r0`) || !strings.Contains(ours[4], `"isError":true`) {
		t.Errorf("unexpected replies:\n%s", strings.Join(ours, "\n"))
	}
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
