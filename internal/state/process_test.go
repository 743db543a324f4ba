package state

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"go.uber.org/goleak"
)

// The test binary, run again with childEnv set, is one of the other
// processes the tests need: childEnv names its role, the other variables
// its arguments.
const (
	childEnv      = "MCM_STATE_TEST_CHILD"
	childPathEnv  = "MCM_STATE_TEST_PATH"
	childCountEnv = "MCM_STATE_TEST_COUNT"
)

func TestMain(m *testing.M) {
	if role := os.Getenv(childEnv); role != "" {
		if err := runChild(role); err != nil {
			fmt.Fprintf(os.Stderr, "child %s: %v\n", role, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	goleak.VerifyTestMain(m)
}

func runChild(role string) error {
	ctx := context.Background()
	s, err := Open(ctx, os.Getenv(childPathEnv), DefaultLimits())
	if err != nil {
		return err
	}
	switch role {
	case "increment":
		// Open, say so, wait for the word to start (so that all the
		// children increment at once), increment, report the conflicts.
		defer s.Close()
		n, err := strconv.Atoi(os.Getenv(childCountEnv))
		if err != nil {
			return err
		}
		fmt.Println("ready")
		if _, err := bufio.NewReader(io.LimitReader(os.Stdin, 64)).ReadString('\n'); err != nil {
			return fmt.Errorf("waiting to start: %w", err)
		}
		conflicts := 0
		for range n {
			c, err := increment(ctx, s, "ns", "counter")
			if err != nil {
				return err
			}
			conflicts += c
		}
		fmt.Printf("conflicts %d\n", conflicts)
		return nil
	case "commit-then-hang":
		// Commit a value, then hold the write lock with a transaction
		// that is never committed, say so, and wait to be killed.
		if _, err := s.SaveMemory(ctx, "ns", "durable", raw(`{"n":42}`), raw(`{"by":"child"}`)); err != nil {
			return err
		}
		c, err := s.db.Conn(ctx)
		if err != nil {
			return err
		}
		if _, err := c.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
			return err
		}
		if _, err := c.ExecContext(ctx, `INSERT INTO memories VALUES ('ns', 'uncommitted', '1', NULL, 1, 0, 0)`); err != nil {
			return err
		}
		fmt.Println("committed")
		_, err = io.Copy(io.Discard, os.Stdin) // until killed
		return err
	}
	return fmt.Errorf("unknown role")
}

// increment adds 1 to the number stored at key (a missing key is 0) the
// way update_memory does: load, compute, swap, and again on a conflict. It
// returns how many conflicts it met.
func increment(ctx context.Context, s *Store, ns, key string) (int, error) {
	for conflicts := 0; conflicts < 100_000; conflicts++ {
		var n, expected int64
		m, err := s.LoadMemory(ctx, ns, key)
		switch {
		case err == nil:
			if err := json.Unmarshal(m.Value, &n); err != nil {
				return conflicts, err
			}
			expected = m.Version
		case !errors.Is(err, ErrNotFound):
			return conflicts, err
		}
		_, err = s.CompareAndSwapMemory(ctx, ns, key, expected, raw(strconv.FormatInt(n+1, 10)))
		if !errors.Is(err, ErrConflict) {
			return conflicts, err
		}
	}
	return 0, errors.New("still conflicting after 100000 tries")
}

// child is the test binary started again in a role.
type child struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
	stderr strings.Builder
}

func startChild(t testing.TB, role, path string, extraEnv ...string) *child {
	t.Helper()
	c := &child{cmd: exec.Command(os.Args[0], "-test.run=^$")}
	c.cmd.Env = append(os.Environ(), append([]string{childEnv + "=" + role, childPathEnv + "=" + path}, extraEnv...)...)
	c.cmd.Stderr = &c.stderr
	var err error
	if c.stdin, err = c.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, err := c.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	c.stdout = bufio.NewReader(io.LimitReader(out, 4096))
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if c.cmd.ProcessState == nil {
			c.cmd.Process.Kill()
			c.cmd.Wait()
		}
	})
	return c
}

// line reads the child's next line of output.
func (c *child) line(t testing.TB) string {
	t.Helper()
	l, err := c.stdout.ReadString('\n')
	if err != nil {
		c.stdin.Close()
		c.cmd.Wait()
		t.Fatalf("reading from child: %v; its stderr: %s", err, c.stderr.String())
	}
	return strings.TrimSuffix(l, "\n")
}

// incrementInProcesses has procs processes increment the counter at path
// each times times, all at once, and returns the conflicts they met.
func incrementInProcesses(t testing.TB, path string, procs, times int) int {
	t.Helper()
	children := make([]*child, procs)
	for i := range children {
		children[i] = startChild(t, "increment", path, childCountEnv+"="+strconv.Itoa(times))
	}
	for _, c := range children {
		if l := c.line(t); l != "ready" {
			t.Fatalf("child said %q, want ready", l)
		}
	}
	for _, c := range children {
		if _, err := io.WriteString(c.stdin, "go\n"); err != nil {
			t.Fatal(err)
		}
	}
	conflicts := 0
	for _, c := range children {
		l := c.line(t)
		n, err := strconv.Atoi(strings.TrimPrefix(l, "conflicts "))
		if err != nil {
			t.Fatalf("child said %q", l)
		}
		conflicts += n
		if err := c.cmd.Wait(); err != nil {
			t.Fatalf("child: %v; its stderr: %s", err, c.stderr.String())
		}
	}
	return conflicts
}

// TestCompareAndSwapAcrossProcesses: 8 processes open a database that does
// not exist yet (so they also race to create it) and each increments one
// key 5 times with load and compare-and-swap: no increment is lost.
func TestCompareAndSwapAcrossProcesses(t *testing.T) {
	path := filepath.Join(t.TempDir(), "new", FileName)
	const procs, times = 8, 5
	conflicts := incrementInProcesses(t, path, procs, times)
	t.Logf("%d increments, %d conflicts retried", procs*times, conflicts)

	s, err := Open(t.Context(), path, DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	m, err := s.LoadMemory(t.Context(), "ns", "counter")
	if err != nil {
		t.Fatal(err)
	}
	if string(m.Value) != strconv.Itoa(procs*times) || m.Version != procs*times {
		t.Errorf("counter = %s at version %d, want %d at version %d", m.Value, m.Version, procs*times, procs*times)
	}
	checkUsage(t, s, "ns")
}

// TestCommittedValueSurvivesKill: a process commits a value, begins
// another write it never commits, and is killed with SIGKILL. The
// committed value is there when the database is opened again, the
// uncommitted one is not, and the killed process's lock is gone.
func TestCommittedValueSurvivesKill(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	c := startChild(t, "commit-then-hang", path)
	if l := c.line(t); l != "committed" {
		t.Fatalf("child said %q, want committed", l)
	}
	if err := c.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	err := c.cmd.Wait()
	ws, ok := c.cmd.ProcessState.Sys().(syscall.WaitStatus)
	if err == nil || !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("child ended with %v, want killed by SIGKILL", err)
	}

	ctx := t.Context()
	s, err := Open(ctx, path, DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	m, err := s.LoadMemory(ctx, "ns", "durable")
	if err != nil || string(m.Value) != `{"n":42}` || string(m.Metadata) != `{"by":"child"}` || m.Version != 1 {
		t.Errorf("after kill -9: %+v, %v; want the committed value", m, err)
	}
	if ok, err := s.MemoryExists(ctx, "ns", "uncommitted"); err != nil || ok {
		t.Errorf("the uncommitted row: exists %v, %v", ok, err)
	}
	if _, err := s.SaveMemory(ctx, "ns", "after", raw(`1`), nil); err != nil {
		t.Errorf("writing after the killed writer: %v", err)
	}
	checkUsage(t, s, "ns")
}
