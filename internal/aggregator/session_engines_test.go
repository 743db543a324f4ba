package aggregator

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mcp-code-mode/mcp-code-mode/internal/clitest"
	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
	"github.com/mcp-code-mode/mcp-code-mode/internal/sandbox"
	"github.com/mcp-code-mode/mcp-code-mode/internal/testenv"
)

// engineProbe prints what tells one container from another, and gVisor
// from the host's kernel: the start time of the container's PID 1 (the
// runner's root, the same for every run of a session's container; under
// gVisor it counts from gVisor's own boot) and whether System V IPC can be
// listed (gVisor keeps no /proc/sysvipc).
const engineProbe = `
import os
print(open("/proc/1/stat").read().rsplit(")", 1)[1].split()[19], "gvisor" if not os.path.exists("/proc/sysvipc") else "runc")
`

// TestSessionIsOffOnlyOnTheEngineThatRefusesIt spreads the runs of four
// sessions over two engines: the shared one, and a second dockerd the test
// starts with gVisor (runsc) as its default runtime, so that its runners
// refuse to serve a session (no /proc/sysvipc) while the shared engine's
// serve them. Each round runs one program in every session at once. A
// session whose container is on the shared engine keeps it: its next run
// is in the same container (the host's record and the container's PID 1,
// as the program sees it). The runs that land on the second engine succeed,
// each in a container of its own, and no session keeps a container there.
// One warning names the second engine with the runner's reason, however
// many of its runners refused at once. Nothing is left on either engine,
// nor of the second dockerd.
func TestSessionIsOffOnlyOnTheEngineThatRefusesIt(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a second Docker engine")
	}
	e1 := clitest.NeedEngine(t)
	if strings.Contains(testRuntime(), "runsc") {
		t.Skip("under gVisor the shared engine's runners refuse sessions too")
	}
	runsc, err := exec.LookPath("runsc")
	if err != nil {
		testenv.SkipOrFail(t, "the second engine runs gVisor: no runsc (Debian's runsc, as .ci/engine.sh installs it): %v", err)
	}
	before, err := e1.Containers(t.Context(), sandbox.Owner())
	if err != nil {
		t.Fatal(err)
	}
	var dir string // the second dockerd's
	t.Run("two engines", func(t *testing.T) {
		d2 := testenv.StartDockerd(t, testenv.DockerdOptions{Runtimes: map[string]string{"runsc": runsc}, DefaultRuntime: "runsc"})
		dir = filepath.Dir(strings.TrimPrefix(d2.Host, "unix://"))
		e2, err := sandbox.Dial(t.Context(), d2.Host)
		if err != nil {
			t.Fatal(err)
		}
		defer e2.Close()
		if _, err := e2.BuildImage(t.Context(), sandbox.BuildOptions{Tag: sandbox.DefaultImage()}); err != nil {
			t.Fatalf("build the sandbox image on the second engine: %v", err)
		}

		var logs testenv.Buffer
		log := slog.New(slog.NewTextHandler(&logs, nil))
		cfg := config.Default()
		cfg.CatalogDir, cfg.TokenDir = t.TempDir(), t.TempDir()
		cfg.State.Path = filepath.Join(t.TempDir(), "state.db")
		cfg.Isolation = config.IsolationSession // and each engine's default runtime
		p := sandbox.NewProvider([]string{e1.Host(), d2.Host}, cfg.Spec(), sandbox.Warming{}, log)
		defer p.Close()
		if err := p.Connect(t.Context()); err != nil {
			t.Fatal(err)
		}
		// Both usable before the first run: the provider's first container
		// goes to the shared engine (the first listed, on a tie), its second
		// to the other (fewer in use).
		waitFor(t, func() string { return fmt.Sprintf("both engines to be usable: %+v", p.Engines()) }, func() bool {
			st := p.Engines()
			return len(st) == 2 && st[0].Usable && st[1].Usable
		})
		a, err := New(cfg, nil, p, log)
		if err != nil {
			t.Fatal(err)
		}
		defer a.Close()

		sessions := []string{"s1", "s2", "s3", "s4"}
		type seen struct {
			held   string // the container the session held before the run ("" none)
			pid1   string // what the program saw
			gvisor bool
			kept   string // the container it holds after the run
		}
		var rounds []map[string]seen
		shared, own := 0, 0
		for round := range 3 {
			got := map[string]seen{}
			var mu sync.Mutex
			var wg sync.WaitGroup
			for _, s := range sessions {
				held := sessionContainerID(a, s)
				wg.Go(func() {
					res := runInSession(t, a, s, engineProbe)
					if res.Error != nil {
						t.Errorf("round %d, session %s: the run failed: %s", round, s, *res.Error)
						return
					}
					pid1, kind, _ := strings.Cut(strings.TrimSpace(res.Stdout), " ")
					mu.Lock()
					got[s] = seen{held: held, pid1: pid1, gvisor: kind == "gvisor"}
					mu.Unlock()
				})
			}
			wg.Wait()
			if t.Failed() {
				t.FailNow()
			}
			for _, s := range sessions {
				r := got[s]
				r.kept = sessionContainerID(a, s)
				got[s] = r
				switch {
				case r.gvisor && (r.held != "" || r.kept != ""):
					t.Errorf("round %d, session %s: a run on the refusing engine, yet the session held %.12q before it and %.12q after", round, s, r.held, r.kept)
				case r.gvisor:
					own++
				case r.kept == "":
					t.Errorf("round %d, session %s: a run on the shared engine left the session no container", round, s)
				case r.held != "" && r.kept != r.held:
					t.Errorf("round %d, session %s: the run was in container %.12s, not the session's %.12s", round, s, r.kept, r.held)
				case r.held != "":
					if prev := rounds[round-1][s]; r.pid1 != prev.pid1 {
						t.Errorf("round %d, session %s: PID 1 started at %s, in the run before at %s: not the same container", round, s, r.pid1, prev.pid1)
					}
					shared++
				}
			}
			rounds = append(rounds, got)
			t.Logf("round %d: %+v", round, got)
		}
		if shared == 0 || own == 0 {
			t.Fatalf("%d runs in a session's kept container, %d on the refusing engine: want both", shared, own)
		}
		a.sessions.mu.Lock()
		for key, sb := range a.sessions.m {
			if sb.c != nil && sb.c.EngineHost() != e1.Host() {
				t.Errorf("session %q keeps a container on %s", key, sb.c.EngineHost())
			}
		}
		a.sessions.mu.Unlock()

		var warnings []string
		for l := range strings.SplitSeq(logs.String(), "\n") {
			if strings.Contains(l, sessionOffWarning) {
				warnings = append(warnings, l)
			}
		}
		if len(warnings) != 1 || !strings.Contains(warnings[0], "engine="+d2.Host) || !strings.Contains(warnings[0], "needs /proc/sysvipc") {
			t.Errorf("want one warning that sessions are off, naming %s and giving the runner's reason:\n%s", d2.Host, strings.Join(warnings, "\n"))
		}

		a.Close()
		p.Close()
		for _, e := range []*sandbox.Engine{e1, e2} {
			var ids []string
			waitFor(t, func() string { return fmt.Sprintf("the sandboxes on %s to be removed (now %v)", e.Host(), ids) }, func() bool {
				ids, err = e.Containers(t.Context(), sandbox.Owner())
				if err != nil {
					t.Fatal(err)
				}
				ids = slices.DeleteFunc(ids, func(id string) bool { return slices.Contains(before, id) })
				return len(ids) == 0
			})
		}
	})
	// The second dockerd has been stopped by the subtest's cleanup.
	if dir == "" {
		return
	}
	if pids := clitest.Pgrep(dir); len(pids) > 0 {
		t.Errorf("processes of the second engine left behind: %v", pids)
	}
	if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the second engine's directory %s is still there (%v)", dir, err)
	}
}
