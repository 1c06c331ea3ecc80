//go:build darwin || freebsd || netbsd || openbsd || dragonfly

package fsys

import "golang.org/x/sys/unix"

// dirFlags opens a directory on the way; these systems have no O_PATH, so a
// directory the user may enter but not list stops the walk.
const dirFlags = unix.O_RDONLY | unix.O_DIRECTORY | unix.O_CLOEXEC
