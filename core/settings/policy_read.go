package settings

import (
	"errors"
	"io/fs"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/fsys"
)

// LoadPolicy reads the policy file. It returns nil when there is none: an
// absent policy is no policy. Anything else that stops charter from reading
// it fails closed with malformed_policy, naming the file, because an ignored
// policy is a hole: a dangling link (the policy was moved, or its volume is
// not mounted), a file charter may not read, a named pipe or a device in
// its place, a file over the settings cap.
func LoadPolicy(sys *core.System) (*Policy, error) {
	path, err := PolicyPath(sys)
	if err != nil {
		return nil, err
	}
	data, err := sys.ReadFile(path, fsys.KindSettings)
	switch {
	case errors.Is(err, fs.ErrNotExist) && isDangling(sys, path):
		link := danglingLink(sys, path)
		what := "policy " + path + " is a link"
		if link != path {
			what = "policy " + path + " lies behind " + link + ", a link"
		}
		return nil, core.Errorf(core.CodeMalformedPolicy, "%s to %s, which does not exist: charter cannot run without reading the policy; fix the link or remove it",
			what, linkText(sys, link))
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil && core.ErrorCode(err) != core.CodeInternal:
		return nil, core.Errorf(core.CodeMalformedPolicy, "read policy: %w (charter cannot run without reading the policy)", err)
	case err != nil:
		return nil, core.Errorf(core.CodeMalformedPolicy, "read policy %s: %w (charter cannot run without reading it)", path, unwrapPath(err))
	}
	return ParsePolicy(path, data)
}

// isDangling reports whether path, or the deepest of its ancestors that
// exists, is a link whose target does not exist: a policy on a volume that
// is not mounted must not read as no policy.
func isDangling(sys *core.System, path string) bool { return danglingLink(sys, path) != "" }

// danglingLink is the dangling link isDangling found, else "". It walks
// from the top down: the first part of the path that is missing ends the
// walk, since nothing below it exists, so a machine without a policy
// folder pays two lstats, not one per level.
func danglingLink(sys *core.System, path string) string {
	ls, ok := sys.Fs.(afero.Lstater)
	if !ok {
		return ""
	}
	var up []string // path and its ancestors, the root last
	for p := path; ; p = sys.Paths.Dir(p) {
		up = append(up, p)
		if sys.Paths.Dir(p) == p {
			break
		}
	}
	for i := len(up) - 2; i >= 0; i-- {
		fi, lstatted, err := ls.LstatIfPossible(up[i])
		switch {
		case err != nil: // missing, or not to be looked into: no link below
			return ""
		case !lstatted || fi.Mode()&fs.ModeSymlink == 0:
		default:
			if _, err := sys.Fs.Stat(up[i]); errors.Is(err, fs.ErrNotExist) {
				return up[i]
			}
		}
	}
	return ""
}

// linkText is where the link at path points, for a message.
func linkText(sys *core.System, path string) string {
	if lr, ok := sys.Fs.(afero.LinkReader); ok {
		if text, err := lr.ReadlinkIfPossible(path); err == nil {
			return text
		}
	}
	return "a missing file"
}

// unwrapPath drops the path an *fs.PathError repeats.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
