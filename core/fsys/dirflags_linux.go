package fsys

import "golang.org/x/sys/unix"

// dirFlags opens a directory on the way. O_PATH needs only search
// permission, so a walk passes directories such as a 0711 /home that the
// user may enter but not list.
const dirFlags = unix.O_PATH | unix.O_DIRECTORY | unix.O_CLOEXEC
