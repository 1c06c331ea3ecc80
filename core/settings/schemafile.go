package settings

import (
	"bytes"
	"fmt"
	"net/url"
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/fsys"
	"github.com/agentkit/charter/helpers/jsondoc"
)

// SchemaFileName is the JSON Schema charter keeps in the config root for
// editors: a settings file charter creates names it in its first line, so
// an editor with a YAML language server completes and checks the keys.
const SchemaFileName = "settings.schema.json"

// schemaModeline starts the comment a YAML language server reads.
const schemaModeline = "# yaml-language-server: $schema="

// SchemaJSON is the JSON Schema as charter prints and writes it.
func SchemaJSON() ([]byte, error) {
	data, err := jsondoc.Encode(JSONSchema(), "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode the settings schema: %w", err)
	}
	return data, nil
}

// SchemaPath is the schema file of a scope: one per config root, shared by
// the root's own settings file and its profiles'.
func SchemaPath(sys *core.System, sc core.Scope) string {
	return sys.Paths.Join(sc.Root.Path, SchemaFileName)
}

// SchemaComment is the first line of a settings file charter creates.
func SchemaComment(schemaPath string) string {
	return schemaModeline + FileURL(schemaPath)
}

// FileURL is the file:// URL of an absolute path, on Unix and on Windows
// (file:///C:/dir/file).
func FileURL(path string) string {
	p := strings.ReplaceAll(path, `\`, "/")
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// Header is what a scope settings file charter creates starts with: the
// comment that points editors at the schema file, and a blank line that
// keeps it the document's own, not the first key's, so it stays when that
// key is removed. Files in a project (committed, shared by people with
// other homes) get none: a file URL into one person's home would be noise
// there.
func Header(sys *core.System, sc core.Scope) string {
	return SchemaComment(SchemaPath(sys, sc)) + "\n\n"
}

// HasHeader reports whether data starts with a schema comment.
func HasHeader(data []byte) bool { return bytes.HasPrefix(data, []byte(schemaModeline)) }

// WriteSchemaFile follows a successful write of the scope's settings file:
// it keeps the schema file in the config root current (rewritten only when
// charter's schema changed, so an upgrade refreshes it), through core's
// guarded write path with the write's own confirmation.
func WriteSchemaFile(sys *core.System, sc core.Scope, confirmShared bool) error {
	schema, err := SchemaJSON()
	if err != nil {
		return err
	}
	// charter's own file under the root: 0600 after every write.
	own := fsys.WriteOptions{ConfirmShared: confirmShared, Owned: true}
	return sys.UpdateFileOpts(SchemaPath(sys, sc), own, func(old []byte) ([]byte, error) {
		if bytes.Equal(old, schema) {
			return nil, nil
		}
		return schema, nil
	})
}
