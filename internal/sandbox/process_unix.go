//go:build unix

package sandbox

import (
	"bytes"
	"errors"
	"os"
	"strconv"
	"syscall"
)

// processAlive reports whether a process with this pid runs on this host.
// A process that has exited and waits to be reaped (a zombie: its parent
// has not waited for it yet) is not alive: its sandboxes are orphans.
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	if err != nil && !errors.Is(err, syscall.EPERM) {
		return false
	}
	return !zombie(pid)
}

// zombie reports whether process pid has exited and waits to be reaped,
// as /proc says where there is one.
func zombie(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// The state is the first field after the command name, which is in
	// parentheses and may hold any byte, so after the last ')'.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return false
	}
	f := bytes.Fields(b[i+1:])
	return len(f) > 0 && string(f[0]) == "Z"
}
