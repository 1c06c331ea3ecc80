package sources

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"

	"github.com/agentkit/charter/core"
)

// Git runs the system git with a clean environment: no prompt for a
// password (a fetch that needs one fails instead of hanging), no hooks,
// no system configuration, no fsmonitor, and only the transports https,
// http, ssh, git and file (never ext:: or fd::, which run commands). The
// user's own configuration stays: credential helpers and ssh keys reach
// private repositories.
type Git struct {
	Bin string   // the git program found on PATH
	Env []string // the environment it runs with
}

// ErrNoGit is returned when no git is on PATH.
var ErrNoGit = &core.Error{Kind: core.CodeNotSupported, Msg: "charter takes shared sources with git, and there is no git on PATH: install git (apt-get install git, brew install git, or https://git-scm.com/downloads), then run the command again"}

// FindGit looks git up on sys's PATH and builds its environment from
// sys's: HOME, PATH and what ssh and proxies need are kept.
func FindGit(sys *core.System) (*Git, error) {
	bin := sys.LookPath("git")
	if bin == "" {
		return nil, ErrNoGit
	}
	env := []string{"GIT_TERMINAL_PROMPT=0", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_ASKPASS=", "SSH_ASKPASS=", "GCM_INTERACTIVE=never", "LC_ALL=C"}
	for _, k := range []string{"HOME", "PATH", "SSH_AUTH_SOCK", "GIT_SSH_COMMAND", "SSH_AGENT_PID",
		"HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY", "https_proxy", "http_proxy", "no_proxy", "SYSTEMROOT", "TMPDIR"} {
		if v, ok := sys.Vars.Get(k, nil).(string); ok {
			env = append(env, k+"="+v)
		}
	}
	return &Git{Bin: bin, Env: env}, nil
}

// command is git in dir with charter's fixed options: hooks off, no
// fsmonitor, no pager.
func (g *Git) command(ctx context.Context, dir string, args ...string) *exec.Cmd {
	full := append([]string{"-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false",
		"-c", "protocol.allow=never", "-c", "protocol.https.allow=always", "-c", "protocol.http.allow=always",
		"-c", "protocol.ssh.allow=always", "-c", "protocol.git.allow=always", "-c", "protocol.file.allow=always", "--no-pager"}, args...)
	if dir != "" {
		full = append([]string{"-C", dir}, full...)
	}
	cmd := exec.CommandContext(ctx, g.Bin, full...)
	cmd.Env = g.Env
	return cmd
}

// run runs git and returns its stdout; a failure carries git's stderr.
func (g *Git) run(ctx context.Context, dir string, stdin io.Reader, args ...string) ([]byte, error) {
	cmd := g.command(ctx, dir, args...)
	var out, errb bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, &out, &errb
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil { // killed for the cancellation: say that, not git's last words
			return nil, fmt.Errorf("git %s: %w", args[0], ctx.Err())
		}
		// One line: git's own lines, joined; a long tail kept.
		msg := strings.Join(strings.Fields(strings.ReplaceAll(errb.String(), "\n", "; ")), " ")
		if len(msg) > 600 {
			msg = "…" + msg[len(msg)-600:]
		}
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("git %s: %s", args[0], msg)
	}
	return out.Bytes(), nil
}

// initBare makes the bare repository a source's objects are kept in.
func (g *Git) initBare(ctx context.Context, dir string) error {
	_, err := g.run(ctx, "", nil, "init", "--bare", "--quiet", "--", dir)
	return err
}

// fetch brings what names (a ref, HEAD or a commit id) from url into the
// bare repository at dir and returns the commit it names there.
func (g *Git) fetch(ctx context.Context, dir, url, what string) (string, error) {
	if _, err := g.run(ctx, dir, nil, "fetch", "--quiet", "--no-tags", "--no-write-fetch-head", "--force", "--end-of-options",
		url, "+"+what+":refs/charter/fetched"); err != nil {
		// A commit id is fetched bare: a refspec's source must be a name
		// on servers that refuse ids there.
		if !commitPattern.Get().MatchString(what) {
			return "", err
		}
		if _, err2 := g.run(ctx, dir, nil, "fetch", "--quiet", "--no-tags", "--end-of-options", url, what); err2 != nil {
			return "", err
		}
		return what, g.hasCommit(ctx, dir, what)
	}
	out, err := g.run(ctx, dir, nil, "rev-parse", "--verify", "--end-of-options", "refs/charter/fetched^{commit}")
	return strings.TrimSpace(string(out)), err
}

// hasCommit is nil when the bare repository holds commit.
func (g *Git) hasCommit(ctx context.Context, dir, commit string) error {
	_, err := g.run(ctx, dir, nil, "cat-file", "-e", "--end-of-options", commit+"^{commit}")
	return err
}

// entry is one file of a tree as ls-tree lists it.
type entry struct {
	mode string // 100644, 100755 or 120000 (a link)
	oid  string
	size int64
	path string // relative to the tree, slash-separated
}

// list lists the files of commit's tree at path (recursively); ok is
// false when path is no folder in that commit.
func (g *Git) list(ctx context.Context, dir, commit, path string) (es []entry, ok bool, err error) {
	spec := commit + "^{tree}"
	if path != "" {
		spec = commit + ":" + path
		out, err := g.run(ctx, dir, nil, "cat-file", "-t", "--end-of-options", spec)
		if err != nil || strings.TrimSpace(string(out)) != "tree" {
			return nil, false, nil
		}
	}
	out, err := g.run(ctx, dir, nil, "ls-tree", "-r", "-l", "-z", "--full-tree", "--end-of-options", spec)
	if err != nil {
		return nil, false, err
	}
	for _, rec := range bytes.Split(out, []byte{0}) {
		if len(rec) == 0 {
			continue
		}
		meta, p, found := bytes.Cut(rec, []byte{'\t'})
		f := strings.Fields(string(meta))
		if !found || len(f) != 4 {
			return nil, false, fmt.Errorf("git ls-tree: unexpected line %q", rec)
		}
		if f[1] != "blob" {
			continue // a submodule's commit: not part of the tree taken
		}
		size, _ := strconv.ParseInt(f[3], 10, 64)
		es = append(es, entry{mode: f[0], oid: f[2], size: size, path: string(p)})
	}
	return es, true, nil
}

// blobs streams the contents of es, in order, to each (git cat-file
// --batch: one process for the whole tree).
func (g *Git) blobs(ctx context.Context, dir string, es []entry, each func(i int, data []byte) error) error {
	var in bytes.Buffer
	for _, e := range es {
		in.WriteString(e.oid + "\n")
	}
	cmd := g.command(ctx, dir, "cat-file", "--batch")
	cmd.Stdin = &in
	var errb bytes.Buffer
	cmd.Stderr = &errb
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	r := bufio.NewReader(out)
	rerr := func() error {
		for i, e := range es {
			head, err := r.ReadString('\n')
			if err != nil {
				return fmt.Errorf("git cat-file: %v", err)
			}
			f := strings.Fields(head)
			if len(f) != 3 || f[0] != e.oid || f[1] != "blob" {
				return fmt.Errorf("git cat-file: unexpected answer %q", strings.TrimSpace(head))
			}
			size, _ := strconv.ParseInt(f[2], 10, 64)
			if size != e.size {
				return fmt.Errorf("git cat-file: %s has %d bytes, ls-tree said %d", e.path, size, e.size)
			}
			data := make([]byte, size+1)
			if _, err := io.ReadFull(r, data); err != nil {
				return fmt.Errorf("git cat-file: %v", err)
			}
			if err := each(i, data[:size]); err != nil {
				return err
			}
		}
		return nil
	}()
	if rerr != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return rerr
	}
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("git cat-file: %s", strings.TrimSpace(errb.String()))
	}
	return nil
}
