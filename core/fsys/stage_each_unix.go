//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package fsys

import (
	"cmp"
	"fmt"
	"sync"

	"golang.org/x/sys/unix"
)

// syncEach fsyncs the staged files from a few goroutines at once: the
// disk sees the flushes together rather than one after another.
func syncEach(ss []*Staged) error {
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
	)
	next := make(chan *Staged)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for s := range next {
				if err := s.fsync(); err != nil {
					mu.Lock()
					if first == nil {
						first = fmt.Errorf("write %s: %w", s.t.Path, err)
					}
					mu.Unlock()
				}
			}
		}()
	}
	for _, s := range ss {
		next <- s
	}
	close(next)
	wg.Wait()
	return first
}

// fsync flushes the staged file, through the descriptor that wrote it or,
// once that is closed, opened again in the walked directory.
func (s *Staged) fsync() error {
	if s.fd >= 0 {
		return unix.Fsync(s.fd)
	}
	if err := s.t.hold(); err != nil {
		return err
	}
	defer s.t.release()
	fd, err := unix.Openat(s.t.fd, cmp.Or(s.tmp, s.t.Name), unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	return unix.Fsync(fd)
}
