//go:build unix

package gates

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// shellCommand runs command through sh in a new process group, so that
// the command and everything it starts can be signalled together. sh is
// at a fixed path: no PATH is searched.
func shellCommand(command string, _ []string) *exec.Cmd {
	cmd := exec.Command("/bin/sh", "-c", command)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return cmd
}

// group is a started gate's process group; its id is the leader's pid.
type group struct{ pgid int }

func newGroup(p *os.Process) group { return group{pgid: p.Pid} }

func (g group) id() int    { return g.pgid }
func (g group) terminate() { syscall.Kill(-g.pgid, syscall.SIGTERM) }
func (g group) kill()      { syscall.Kill(-g.pgid, syscall.SIGKILL) }

// alive reports whether any process of the group remains (a zombie that
// its parent has not reaped yet counts: kill(2) still finds it).
func (g group) alive() bool {
	reapGroup(g.pgid) // its orphans are charter's children while gates run (Linux)
	err := syscall.Kill(-g.pgid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// exitStatus returns the exit code, or 128+n and the signal's name when a
// signal ended the process, as shells report it.
func exitStatus(ps *os.ProcessState) (int, string) {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		sig := ws.Signal()
		return 128 + int(sig), sigName(sig)
	}
	return ps.ExitCode(), ""
}

func sigName(s syscall.Signal) string {
	switch s {
	case syscall.SIGKILL:
		return "SIGKILL"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGSEGV:
		return "SIGSEGV"
	case syscall.SIGABRT:
		return "SIGABRT"
	}
	return s.String()
}
