//go:build linux

package sandbox

import (
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"
)

// A process that has exited but was not reaped yet owns nothing: the
// sweep treats its sandboxes as orphans.
func TestAnExitedProcessWaitingToBeReapedIsNotAlive(t *testing.T) {
	if !processAlive(os.Getpid()) {
		t.Fatal("this process is not alive")
	}
	cmd := exec.Command("true")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Wait() }()
	pid := cmd.Process.Pid
	deadline := time.Now().Add(10 * time.Second)
	for !zombie(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("process %d did not exit within 10s", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if processAlive(pid) {
		t.Errorf("process %d has exited (a zombie) and is called alive", pid)
	}
	if !orphan("h/"+strconv.Itoa(pid), "h", time.Now(), 0) {
		t.Errorf("a sandbox of the exited process %d is not an orphan", pid)
	}
}
