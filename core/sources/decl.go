// Package sources takes a team's shared library of rules, skills, commands
// and subagents from a git repository, pinned (SPEC §15). git is the
// engine: charter runs the system git to clone, fetch and read the pinned
// commit's tree into its cache, and never checks anything out into a work
// tree. A settings layer declares its sources (the `sources` list); the
// layer's sources.lock pins each one's commit and the sha256 of the tree
// taken, and every read uses exactly that, offline from the cache.
package sources

import (
	"fmt"
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/lazy"
)

// Decl is one source as a layer declares it: one item of its `sources`
// list, written URL#ref=REF&path=DIR&name=NAME (each part after # optional).
type Decl struct {
	Name string `json:"name"`
	URL  string `json:"url"`
	Ref  string `json:"ref,omitempty"`  // "" : the remote's default branch (HEAD)
	Path string `json:"path,omitempty"` // the folder of the repository that holds rules/, skills/, …; "" : its root
}

// refPattern keeps a ref to what git accepts as a name (or a commit id)
// and out of option syntax: it is passed to git after --end-of-options.
var namePattern = lazy.Regexp{Expr: `^[a-z0-9]+(-[a-z0-9]+)*$`}

var refPattern = lazy.Regexp{Expr: `^[A-Za-z0-9][A-Za-z0-9._/+-]*$`}

// ParseDecl reads one item of a `sources` list.
func ParseDecl(s string) (Decl, error) {
	bad := func(format string, args ...any) (Decl, error) {
		return Decl{}, core.Errorf(core.CodeInvalidValue, "source %q: %s", s, fmt.Sprintf(format, args...))
	}
	raw, frag, _ := strings.Cut(s, "#")
	d := Decl{URL: strings.TrimSpace(raw)}
	if frag != "" {
		seen := map[string]bool{}
		for _, part := range strings.Split(frag, "&") {
			k, v, ok := strings.Cut(part, "=")
			if !ok || seen[k] {
				return bad("what follows # is not ref=REF&path=DIR&name=NAME, each once")
			}
			seen[k] = true
			switch k {
			case "ref":
				d.Ref = v
			case "path":
				d.Path = v
			case "name":
				d.Name = v
			default:
				return bad("%s is not a part of a source: after # give ref=, path= and name=", k)
			}
		}
	}
	return d.normal(bad)
}

// normal checks d and fills its name, as ParseDecl and the CLI need.
func (d Decl) normal(bad func(string, ...any) (Decl, error)) (Decl, error) {
	switch {
	case d.URL == "":
		return bad("no URL: give what `git clone` accepts (https, ssh, file, a local path)")
	case strings.HasPrefix(d.URL, "-"):
		return bad("a URL cannot start with -")
	case strings.ContainsAny(d.URL, "#\x00\n\r"):
		return bad("the URL holds # or a control character")
	case strings.ContainsAny(d.Path, "#&=\x00\n\r"):
		return bad("path %q holds #, &, = or a control character", d.Path)
	case strings.HasPrefix(strings.ToLower(d.URL), "ext::"):
		return bad("ext:: URLs run a command: charter fetches over https, ssh, file or a local path only")
	case d.Ref != "" && (!refPattern.Get().MatchString(d.Ref) || strings.Contains(d.Ref, "..")):
		return bad("ref %q is not a branch, tag or commit name", d.Ref)
	}
	p := strings.Trim(strings.ReplaceAll(d.Path, "\\", "/"), "/")
	for _, seg := range strings.Split(p, "/") {
		if p != "" && (seg == "" || seg == "." || seg == ".." || strings.HasPrefix(seg, "-")) {
			return bad("path %q is not a folder inside the repository: give it relative to the repository's root, e.g. team/rules-library", d.Path)
		}
	}
	d.Path = p
	if d.Name == "" {
		d.Name = nameOf(d.URL, d.Path)
	}
	if !namePattern.Get().MatchString(d.Name) || len(d.Name) > 64 {
		return bad("name %q is not a source name: lowercase letters, digits and single hyphens, at most 64 (give name=NAME after #, or --name)", d.Name)
	}
	return d, nil
}

// Normal checks a declaration the CLI built from flags.
func (d Decl) Normal() (Decl, error) {
	return d.normal(func(format string, args ...any) (Decl, error) {
		return Decl{}, core.Errorf(core.CodeUsage, "source %s: %s", d.URL, fmt.Sprintf(format, args...))
	})
}

// nameOf is a source's default name: the repository's last path segment
// without .git, lowercased, with what is not a letter or digit as hyphens.
func nameOf(u, _ string) string {
	s := strings.TrimRight(strings.ReplaceAll(u, "\\", "/"), "/")
	if i := strings.LastIndexAny(s, "/:"); i >= 0 {
		s = s[i+1:]
	}
	s = strings.TrimSuffix(strings.ToLower(s), ".git")
	var b strings.Builder
	for _, r := range s {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
		} else if b.Len() > 0 && !strings.HasSuffix(b.String(), "-") {
			b.WriteByte('-')
		}
	}
	n := strings.Trim(b.String(), "-")
	if len(n) > 64 {
		n = strings.Trim(n[:64], "-")
	}
	return n
}

// String is the item of a `sources` list that declares d: the name only
// when it is not the URL's own.
func (d Decl) String() string {
	var q []string
	if d.Ref != "" {
		q = append(q, "ref="+d.Ref)
	}
	if d.Path != "" {
		q = append(q, "path="+d.Path)
	}
	if d.Name != nameOf(d.URL, d.Path) {
		q = append(q, "name="+d.Name)
	}
	if len(q) == 0 {
		return d.URL
	}
	return d.URL + "#" + strings.Join(q, "&")
}

// RefOrHead is the ref git fetches.
func (d Decl) RefOrHead() string {
	if d.Ref == "" {
		return "HEAD"
	}
	return d.Ref
}

// Same reports whether two declarations take the same tree.
func (d Decl) Same(o Decl) bool {
	return d.Name == o.Name && d.URL == o.URL && d.Ref == o.Ref && d.Path == o.Path
}
