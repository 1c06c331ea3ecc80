package apply

// Zed's file tools match their pattern against the path as the model
// writes it (crates/agent/src/tools: decide_permission_for_path, on the
// raw path and on it with . and .. folded, the stricter result winning):
// the worktree's folder name first ("shop/src/a.go"), or an absolute
// path, or "~/…" for the skills folder. So a path rule is matched as the
// end of the path after any folder: wider than the rule, the safe side
// for a deny or a confirm, never for an allow. The fetch tool matches
// the URL as written, before it adds https:// to one without a scheme.

import (
	"regexp"
	"strings"
)

const (
	zedProjectHead = `(?:^|/)`   // the glob after any folder
	zedHomeHead    = `(?:^~/|/)` // a ~/ glob: after ~/ or any folder
	zedPathTail    = `$`         // the whole rest of the path
	zedURLHead     = `^(?:https?://)?(?:[^/?#@\\]*@)?`
	zedURLTail     = `\.?(?::[0-9]*)?(?:[/?#\\]|$)` // the host ends there
	zedSubdomain   = `[^/?#@\\:]+\.`                // web:*.D's labels before D
	zedEveryURL    = `.*`                           // web:*
)

// zedGlob is a path glob (** spans folders, * and ? stay in one) as
// Zed's path regex; ok false for a [class], which Go's path.Match and
// Rust's regex read differently.
func zedGlob(glob string) (string, bool) {
	head, rest := zedProjectHead, glob
	if r, ok := strings.CutPrefix(glob, "~/"); ok {
		head, rest = zedHomeHead, r
	}
	if strings.Contains(rest, "[") {
		return "", false
	}
	var b strings.Builder
	b.WriteString(head)
	segs := strings.Split(rest, "/")
	for i, seg := range segs {
		last := i == len(segs)-1
		if seg == "**" {
			switch {
			case last && i == 0:
				b.WriteString(`.*`)
			case last:
				b.WriteString(`(?:/.*)?`)
			case i == 0:
				b.WriteString(`(?:.*/)?`)
			default:
				b.WriteString(`/(?:.*/)?`)
			}
			continue
		}
		if i > 0 && segs[i-1] != "**" {
			b.WriteString("/")
		}
		for _, c := range seg {
			switch c {
			case '*':
				b.WriteString(`[^/]*`)
			case '?':
				b.WriteString(`[^/]`)
			default:
				b.WriteString(regexp.QuoteMeta(string(c)))
			}
		}
	}
	b.WriteString(zedPathTail)
	return b.String(), true
}

// ZedGlobOf reads back a path pattern in charter's form: the glob, or ok
// false for a regex written any other way.
func ZedGlobOf(pattern string) (string, bool) {
	for _, h := range []struct{ head, prefix string }{{zedHomeHead, "~/"}, {zedProjectHead, ""}} {
		body, ok := strings.CutPrefix(pattern, h.head)
		if !ok {
			continue
		}
		glob, ok := globOf(strings.TrimSuffix(body, zedPathTail))
		if !ok || !strings.HasSuffix(body, zedPathTail) {
			return "", false
		}
		glob = h.prefix + glob
		if again, ok := zedGlob(glob); !ok || again != pattern {
			return "", false // only what charter itself would write
		}
		return glob, true
	}
	return "", false
}

// globOf undoes zedGlob's body; the caller checks the round trip.
func globOf(body string) (string, bool) {
	for _, p := range []struct{ re, glob string }{
		{`/(?:.*/)?`, "/**/"}, {`(?:.*/)?`, "**/"}, {`(?:/.*)?`, "/**"}, {`[^/]*`, "*"}, {`[^/]`, "?"}, {`.*`, "**"},
	} {
		body = strings.ReplaceAll(body, p.re, "\x00"+p.glob+"\x00")
	}
	var b strings.Builder
	for i, part := range strings.Split(body, "\x00") {
		if i%2 == 1 {
			b.WriteString(part)
			continue
		}
		w := unquoteMeta(part)
		if regexp.QuoteMeta(w) != part {
			return "", false
		}
		b.WriteString(w)
	}
	return b.String(), true
}

// zedURL is a web rule's domain as Zed's URL regex, anchored on the host:
// an optional scheme and user, the host, then a port, a path, a query, a
// fragment or the end (a backslash too: the URL parser reads it as /).
func zedURL(domain string) string {
	if domain == "*" {
		return zedEveryURL
	}
	host := regexp.QuoteMeta(domain)
	if d, ok := strings.CutPrefix(domain, "*."); ok {
		host = zedSubdomain + regexp.QuoteMeta(d)
	}
	return zedURLHead + host + zedURLTail
}

// ZedDomainOf reads back a fetch pattern in charter's form: the web rule's
// domain (* for every one), or ok false.
func ZedDomainOf(pattern string) (string, bool) {
	if pattern == zedEveryURL {
		return "*", true
	}
	body, ok := strings.CutPrefix(pattern, zedURLHead)
	body, ended := strings.CutSuffix(body, zedURLTail)
	if !ok || !ended || body == "" {
		return "", false
	}
	prefix := ""
	if b, sub := strings.CutPrefix(body, zedSubdomain); sub {
		prefix, body = "*.", b
	}
	d := unquoteMeta(body)
	if d == "" || regexp.QuoteMeta(d) != body {
		return "", false
	}
	return prefix + d, true
}
