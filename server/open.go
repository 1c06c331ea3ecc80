package server

import (
	"html"
	"net/url"
	"strings"

	"github.com/agentkit/charter/core"
)

// OpenFile is the page that hands the browser the hub's address with the
// token, in the scope's state directory.
const OpenFile = "open-hub.html"

// OpenFilePath is where a scope's open page lives.
func OpenFilePath(sys *core.System, sc core.Scope) string {
	return sys.Paths.Join(sc.Path, "state", OpenFile)
}

// WriteOpenPage writes the page that sends a browser on to hubURL and
// returns the file:// URL to open it by. As Jupyter does: a command line is
// visible to every local user (ps), a file of mode 0600 only to its owner,
// so the token travels in the file and never in the opener's arguments.
// The token stays in the fragment, which no server or log sees.
func WriteOpenPage(sys *core.System, sc core.Scope, hubURL string) (string, error) {
	path := OpenFilePath(sys, sc)
	u := html.EscapeString(hubURL)
	page := `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="referrer" content="no-referrer">
<meta http-equiv="refresh" content="0;url=` + u + `">
<title>Opening the charter settings hub</title>
</head>
<body>
<p>Opening the charter settings hub. If nothing happens, <a href="` + u + `">open it here</a>.</p>
</body>
</html>
`
	// WriteAtomic makes the page 0600 whatever mode an older copy had, and
	// writes through a link at the path without replacing it.
	if err := sys.WriteAtomic(path, []byte(page)); err != nil {
		return "", err
	}
	return fileURL(sys, path), nil
}

// fileURL is the file:// URL of an absolute path (file:///C:/… on Windows).
func fileURL(sys *core.System, path string) string {
	p := path
	if sys.Paths.Windows {
		p = strings.ReplaceAll(p, `\`, "/")
	}
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}
