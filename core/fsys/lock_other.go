//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package fsys

import "github.com/gofrs/flock"

// lockFile takes an exclusive lock on path (LockFileEx on Windows).
func lockFile(path string) (func(), error) {
	fl := flock.New(path, flock.SetPermissions(0o600))
	if err := fl.Lock(); err != nil {
		return nil, err
	}
	return func() { fl.Unlock() }, nil
}
