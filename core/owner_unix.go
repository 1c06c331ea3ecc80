//go:build unix

package core

import (
	"os"
	"syscall"
)

func statOwner(sys any) (int, bool) {
	if st, ok := sys.(*syscall.Stat_t); ok {
		return int(st.Uid), true
	}
	return 0, false
}

func processEuid() (int, bool) { return os.Geteuid(), true }
