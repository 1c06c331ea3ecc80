package gates

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// A gate's process that leaves its group (setsid, a daemon) escapes the
// group's signals. While gates run, charter is a child subreaper
// (PR_SET_CHILD_SUBREAPER): such a process, orphaned when its parent
// exits, becomes charter's child instead of init's. When the gate ends,
// charter kills and reaps those of its children that carry the gate's
// mark, an environment variable with a value of this run's own: so the
// long-running server, which runs gates beside other children (a browser
// it opened), ends only what descends from the gate. A process that
// clears its environment before it execs escapes this; one that exits by
// itself before the gate ends is reaped when its group is (reapGroup) or,
// outside the group, stays a zombie until charter exits.

// gateMarkVar carries the mark in every gate's environment.
const gateMarkVar = "CHARTER_GATE_RUN"

var subreaper struct {
	mu sync.Mutex
	n  int
}

// gateReaper makes charter a subreaper until end is called (counted, for
// gates that run at once) and returns the mark for one gate's environment.
func gateReaper() (mark string, end func()) {
	var b [8]byte
	rand.Read(b[:])
	mark = strconv.Itoa(os.Getpid()) + "-" + hex.EncodeToString(b[:])
	subreaper.mu.Lock()
	if subreaper.n == 0 {
		unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) // best effort: without it, as on other systems
	}
	subreaper.n++
	subreaper.mu.Unlock()
	return gateMarkVar + "=" + mark, func() {
		subreaper.mu.Lock()
		defer subreaper.mu.Unlock()
		if subreaper.n--; subreaper.n == 0 {
			unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)
		}
	}
}

// child is one of charter's children as /proc shows it.
type child struct {
	pid, pgid int
	zombie    bool
}

// children lists this process's children.
func children() []child {
	self := os.Getpid()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []child
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp …; comm may hold anything, so read after the last ')'.
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(b[i+1:]))
		if len(f) < 3 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		pgid, _ := strconv.Atoi(f[2])
		if ppid == self {
			out = append(out, child{pid: pid, pgid: pgid, zombie: f[0] == "Z"})
		}
	}
	return out
}

// marked reports whether a live process carries mark in its environment.
func marked(pid int, mark string) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return false
	}
	for _, kv := range bytes.Split(b, []byte{0}) {
		if string(kv) == mark {
			return true
		}
	}
	return false
}

// endEscaped kills and reaps charter's children that carry mark (a
// killed one's own orphans come next, so it looks again until none is
// left, at most a few rounds), and reports whether there were any.
func endEscaped(mark string) bool {
	if mark == "" {
		return false
	}
	found := false
	for range 20 {
		var pids []int
		for _, c := range children() {
			if !c.zombie && marked(c.pid, mark) {
				pids = append(pids, c.pid)
			}
		}
		if len(pids) == 0 {
			return found
		}
		found = true
		for _, pid := range pids {
			syscall.Kill(pid, syscall.SIGKILL)
			reap(pid)
		}
	}
	return found
}

// reapGroup reaps the zombies of group pgid that became charter's
// children (the leader is os/exec's to wait for): while they are there,
// kill(-pgid, 0) still finds the group.
func reapGroup(pgid int) {
	for _, c := range children() {
		if c.zombie && c.pgid == pgid && c.pid != pgid {
			reap(c.pid)
		}
	}
}

// reap waits for one child pid, at most reapWait.
func reap(pid int) {
	var ws unix.WaitStatus
	deadline := time.Now().Add(reapWait)
	for time.Now().Before(deadline) {
		got, err := unix.Wait4(pid, &ws, unix.WNOHANG, nil)
		if got == pid || (err != nil && err != unix.EINTR) {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}
