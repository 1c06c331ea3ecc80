package commands

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core/coretest"
)

// BenchmarkMainPing is the in-process cost of one `charter ping --json`,
// parsing included: what a process pays on top of starting up.
func BenchmarkMainPing(b *testing.B) {
	environ := coretest.New(b).Environ()
	b.ReportAllocs()
	for b.Loop() {
		Main(context.Background(), Build{Version: "b"}, []string{"ping", "--json"}, strings.NewReader(""), io.Discard, io.Discard, environ, afero.NewOsFs())
	}
}

// BenchmarkMainDetect is the in-process cost of one `charter detect --json`.
func BenchmarkMainDetect(b *testing.B) {
	environ := coretest.New(b).Environ()
	b.ReportAllocs()
	for b.Loop() {
		Main(context.Background(), Build{Version: "b"}, []string{"detect", "--json"}, strings.NewReader(""), io.Discard, io.Discard, append(environ, "PATH=/usr/local/bin:/usr/bin:/bin"), afero.NewOsFs())
	}
}

// BenchmarkMainSettingsGet is the in-process cost of one `charter settings
// get rules.tier`: the command most hosts run at start.
func BenchmarkMainSettingsGet(b *testing.B) {
	environ := coretest.New(b).Environ()
	b.ReportAllocs()
	for b.Loop() {
		Main(context.Background(), Build{Version: "b"}, []string{"settings", "get", "rules.tier"}, strings.NewReader(""), io.Discard, io.Discard, environ, afero.NewOsFs())
	}
}

// BenchmarkMainHelp is the in-process cost of `charter --help`: the whole
// grammar built and rendered.
func BenchmarkMainHelp(b *testing.B) {
	environ := coretest.New(b).Environ()
	b.ReportAllocs()
	for b.Loop() {
		Main(context.Background(), Build{Version: "b"}, []string{"--help"}, strings.NewReader(""), io.Discard, io.Discard, environ, afero.NewOsFs())
	}
}

// BenchmarkMainVersion is the in-process cost of `charter version`.
func BenchmarkMainVersion(b *testing.B) {
	environ := coretest.New(b).Environ()
	b.ReportAllocs()
	for b.Loop() {
		Main(context.Background(), Build{Version: "b"}, []string{"version"}, strings.NewReader(""), io.Discard, io.Discard, environ, afero.NewOsFs())
	}
}
