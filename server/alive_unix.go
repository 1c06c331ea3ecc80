//go:build unix

package server

import (
	"errors"
	"syscall"
)

// processAlive sends signal 0: no signal, only the check that pid exists.
// EPERM means it exists but belongs to someone else.
func processAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
