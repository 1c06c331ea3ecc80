//go:build windows

package gates

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
)

// shellCommand runs command through cmd.exe in a new process group. The
// command line is given as is (/S /C "…"): cmd.exe does not parse its
// arguments the way exec's quoting expects. cmd.exe is the one env's
// ComSpec (else SystemRoot's) names: the System's environment, never
// this process's PATH.
func shellCommand(command string, env []string) *exec.Cmd {
	comspec := envValue(env, "ComSpec")
	if comspec == "" {
		if root := envValue(env, "SystemRoot"); root != "" {
			comspec = root + `\System32\cmd.exe`
		}
	}
	if comspec == "" {
		comspec = `C:\Windows\System32\cmd.exe`
	}
	cmd := exec.Command(comspec)
	cmd.SysProcAttr = &syscall.SysProcAttr{
		CmdLine:       `cmd.exe /S /C "` + command + `"`,
		CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP,
	}
	return cmd
}

// envValue is name's value in env; Windows' names ignore case.
func envValue(env []string, name string) string {
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && strings.EqualFold(k, name) {
			return v
		}
	}
	return ""
}

// group is a started gate's process tree, rooted at the leader. Windows
// has no SIGTERM for a console tree: both steps kill the tree with
// taskkill /T, which finds descendants through the leader, so it must run
// while the leader lives.
type group struct{ pid int }

func newGroup(p *os.Process) group { return group{pid: p.Pid} }

func (g group) id() int    { return g.pid }
func (g group) terminate() { g.kill() }

func (g group) kill() {
	exec.Command("taskkill", "/T", "/F", "/PID", strconv.Itoa(g.pid)).Run()
}

// alive cannot see orphaned descendants on Windows; the tree was killed
// through the leader, so nothing is reported left.
func (g group) alive() bool { return false }

func exitStatus(ps *os.ProcessState) (int, string) { return ps.ExitCode(), "" }
