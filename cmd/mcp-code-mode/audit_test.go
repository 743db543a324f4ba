package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcp-code-mode/mcp-code-mode/internal/audit"
	"github.com/mcp-code-mode/mcp-code-mode/internal/clitest"
)

// auditRecord is one record of the audit log as `log --json` prints it.
type auditRecord struct {
	audit.Entry
	Arguments     json.RawMessage `json:"arguments"`
	ArgumentsHead string          `json:"arguments_head"`
	CodeSHA256    string          `json:"code_sha256"`
}

// auditDir is the fixture's audit log directory: the default one, in its
// state directory.
func auditDir(f *clitest.Fixture) string {
	return filepath.Join(f.Home, ".local", "state", "mcp-code-mode", "audit")
}

// auditLog reads the audit log with `log --json args...`.
func auditLog(t *testing.T, f *clitest.Fixture, args ...string) []auditRecord {
	t.Helper()
	r := f.CLI(t, "log", append([]string{"--json"}, args...)...)
	if r.Code != 0 || strings.TrimSpace(r.Stderr) != "" {
		t.Fatalf("log --json %v: exit %d, stderr %q", args, r.Code, r.Stderr)
	}
	var out []auditRecord
	for line := range strings.SplitSeq(strings.TrimSuffix(r.Stdout, "\n"), "\n") {
		if line == "" {
			continue
		}
		var rec auditRecord
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("log --json printed a line that is not a record: %q: %v", line, err)
		}
		out = append(out, rec)
	}
	return out
}

// auditBytes is everything the audit log's directory holds.
func auditBytes(t *testing.T, f *clitest.Fixture) string {
	t.Helper()
	var b strings.Builder
	ents, err := os.ReadDir(auditDir(f))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		data, err := os.ReadFile(filepath.Join(auditDir(f), e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		b.Write(data)
	}
	return b.String()
}

// callsOf returns the call records of run id, and its run record.
func callsOf(recs []auditRecord, id string) (calls []auditRecord, run *auditRecord) {
	for i, r := range recs {
		switch {
		case r.Run != id:
		case r.Kind == audit.KindCall:
			calls = append(calls, r)
		case r.Kind == audit.KindRun:
			run = &recs[i]
		}
	}
	return calls, run
}

// lastRun is the run record the log ends with.
func lastRun(t *testing.T, recs []auditRecord) auditRecord {
	t.Helper()
	for _, r := range slices.Backward(recs) {
		if r.Kind == audit.KindRun {
			return r
		}
	}
	t.Fatalf("no run record in the audit log (%d records)", len(recs))
	return auditRecord{}
}

// A run's calls are all in the audit log, refused ones included, each with
// its outcome (ok, refused by the policy or the schema, a tool error, a
// timeout) and a reason that quotes no argument; and the run's record says
// how it ended without quoting the program. A hostile program
// (testdata/audit/hostile.py) tries to get its argument values into the log
// through every outcome and to forge records with a tool name: no value is
// there, in the JSON lines or in log's table, and no record is forged.
func TestTheAuditLogHasEveryCallOfARunAndNoArgumentValues(t *testing.T) {
	clitest.NeedEngine(t)
	f := clitest.NewFixture(t, "deny = [\"env\"]\n")
	prog, err := filepath.Abs(filepath.Join("testdata", "audit", "hostile.py"))
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(prog)
	if err != nil {
		t.Fatal(err)
	}
	r := f.CLI(t, "run", prog, "--servers", "test")
	if r.Code != 1 || !strings.Contains(r.Stdout, "timeout: test.sleep timed out") || !strings.Contains(r.Stderr, "SENTINEL-RAISE-6") {
		t.Fatalf("the hostile program: exit %d (want 1, its ValueError)\nstdout %s\nstderr %s", r.Code, r.Stdout, r.Stderr)
	}
	recs := auditLog(t, f)
	run := lastRun(t, recs)
	calls, _ := callsOf(recs, run.Run)
	want := []struct{ tool, outcome, reason string }{
		{"echo", audit.OK, ""},
		{"env", audit.Refused, `test.env is denied by the deny list of [servers.test]`},
		{"fail", audit.Error, "the tool answered with an error (isError)"},
		{"sleep", audit.Timeout, "test.sleep timed out after 300ms (its timeout=)"},
		{"sleep", audit.Refused, "arguments of test.sleep do not match its schema"},
		{"echo", audit.Refused, "test.echo was given 1 argument its schema does not list"},
		{`x"}`, audit.Refused, "test has no tool"},
	}
	if len(calls) != len(want) || len(recs) != len(want)+1 {
		t.Fatalf("%d records, %d of them calls of run %s; want %d calls and the run:\n%+v", len(recs), len(calls), run.Run, len(want), recs)
	}
	for i, w := range want {
		c := calls[i]
		if !strings.HasPrefix(c.Tool, w.tool) || c.Outcome != w.outcome || !strings.HasPrefix(c.Reason, w.reason) {
			t.Errorf("call %d: %s.%s %s (%q), want %s %s (%q)", i, c.Server, c.Tool, c.Outcome, c.Reason, w.tool, w.outcome, w.reason)
		}
		if c.Server != "test" || c.Session != "cli" || c.ArgBytes < 2 || len(c.ArgSHA256) != 64 {
			t.Errorf("call %d: server %q session %q arg_bytes %d arg_sha256 %q", i, c.Server, c.Session, c.ArgBytes, c.ArgSHA256)
		}
		if (c.Outcome == audit.OK) != (c.ResultBytes > 0) || c.Arguments != nil || c.ArgumentsHead != "" {
			t.Errorf("call %d: %s with result_bytes %d, arguments %s %q", i, c.Outcome, c.ResultBytes, c.Arguments, c.ArgumentsHead)
		}
	}
	if calls[3].DurationMS < 300 {
		t.Errorf("the call that timed out after 300ms took %vms", calls[3].DurationMS)
	}
	sum := sha256.Sum256(src)
	if run.Outcome != audit.Error || run.Reason != "the program raised ValueError" || run.ExitCode != 1 || run.Calls != len(want) ||
		!slices.Equal(run.Servers, []string{"test"}) || run.Session != "cli" || run.CodeBytes != len(src) || run.CodeSHA256 != hex.EncodeToString(sum[:]) {
		t.Errorf("the run's record: %s", run.Line)
	}
	all := auditBytes(t, f)
	for _, secret := range []string{"SENTINEL-ECHO-1", "SENTINEL-DENIED-2", "SENTINEL-FAIL-3", "SENTINEL_KEY_4", "SENTINEL-VALUE-5", "SENTINEL-RAISE-6", "987654321"} {
		if strings.Contains(all, secret) {
			t.Errorf("the audit log holds the argument value %s", secret)
		}
	}
	for _, r := range recs {
		if r.Run == "forged" || r.Tool == "FORGED" {
			t.Errorf("a record forged by a tool name: %s", r.Line)
		}
	}
	// The table: one line per record, whatever the names hold.
	table := f.CLI(t, "log")
	lines := strings.Split(strings.TrimSuffix(table.Stdout, "\n"), "\n")
	if table.Code != 0 || len(lines) != len(recs)+1 || strings.ContainsAny(table.Stdout, "\x1b\r") {
		t.Errorf("log: exit %d, %d lines for %d records (and a header):\n%s", table.Code, len(lines), len(recs), table.Stdout)
	}
	if !strings.Contains(lines[4], "test.sleep") || !strings.Contains(lines[4], "timeout") {
		t.Errorf("log's line for the timeout: %q", lines[4])
	}
	// The owner's alone.
	for name, mode := range map[string]os.FileMode{"": 0o700, audit.FileName: 0o600} {
		fi, err := os.Stat(filepath.Join(auditDir(f), name))
		if err != nil || fi.Mode().Perm() != mode {
			t.Errorf("%s: %v, mode %v, want %v", filepath.Join(auditDir(f), name), err, fi.Mode().Perm(), mode)
		}
	}
}

// With audit.arguments = true a call's record has its arguments, with the
// value of a configured secret redacted.
func TestWithArgumentsTheAuditLogHasThemWithSecretsRedacted(t *testing.T) {
	clitest.NeedEngine(t)
	const secret = "tok-SENTINEL-secret-77"
	f := clitest.NewFixture(t, "[servers.test.env]\nAPI_TOKEN = \""+secret+"\"\n[audit]\narguments = true\n")
	r := f.CLI(t, "run", "--servers", "test", "-c", `print(await mcp_test.echo(message="visible-value `+secret+`"))
try:
    await mcp_test.sleep(ms=`+"\""+secret+"\""+`)
except ToolError as e:
    print("refused")`)
	if r.Code != 0 {
		t.Fatalf("run: exit %d: %s", r.Code, r.Stderr)
	}
	recs := auditLog(t, f)
	calls, run := callsOf(recs, lastRun(t, recs).Run)
	if len(calls) != 2 || run == nil {
		t.Fatalf("%d calls in the log, want 2: %+v", len(calls), recs)
	}
	if got := string(calls[0].Arguments); got != `{"message":"visible-value [redacted]"}` {
		t.Errorf("the echo's arguments in the log: %s", got)
	}
	if got := string(calls[1].Arguments); got != `{"ms":"[redacted]"}` || calls[1].Outcome != audit.Refused {
		t.Errorf("the refused sleep's arguments in the log: %s (%s)", got, calls[1].Outcome)
	}
	if all := auditBytes(t, f); strings.Contains(all, secret) || !strings.Contains(all, "visible-value") {
		t.Errorf("the audit log should hold the arguments without the secret:\n%s", all)
	}
}

// kill -9 of serve right after a run ended: the run's calls and its record
// are all in the log (each was written before the program, or the client,
// got its answer), over streamable HTTP and over stdio.
func TestTheAuditLogHasAnEndedRunsCallsAfterServeIsKilled(t *testing.T) {
	eng := clitest.NeedEngine(t)
	const calls = 40
	code := fmt.Sprintf(`import asyncio
r = await asyncio.gather(*[mcp_test.add(a=i, b=1) for i in range(%d)])
print(len(r))`, calls)
	check := func(t *testing.T, f *clitest.Fixture, session string) {
		t.Helper()
		// The dead process's sandbox is an orphan: removed, so the suite
		// stays clean.
		if _, err := eng.Sweep(context.Background(), 0); err != nil {
			t.Logf("sweep: %v", err) // one being removed already is fine; one left over fails the test's cleanup
		}
		recs := auditLog(t, f)
		run := lastRun(t, recs)
		got, _ := callsOf(recs, run.Run)
		if run.Outcome != audit.OK || run.Calls != calls || len(got) != calls {
			t.Fatalf("after kill -9: the run's record %s, and %d call records, want %d", run.Line, len(got), calls)
		}
		for _, c := range got {
			if c.Outcome != audit.OK || c.Tool != "add" || c.Session != session {
				t.Errorf("call record %s", c.Line)
			}
		}
	}
	t.Run("http", func(t *testing.T) {
		f := clitest.NewFixture(t, "[limits]\nwarm = 0\n")
		p, url := f.HTTPServe(t, nil, "serve", "--config", f.Config, "--http", "127.0.0.1:PORT")
		c := clitest.HTTPClient(t, url, f.Auth(t))
		clitest.Initialize(t, c)
		res := clitest.RunPython(t, c, map[string]any{"code": code, "servers": []string{"test"}})
		if res.Structured.Stdout != fmt.Sprintf("%d\n", calls) {
			t.Fatalf("the run: %q", res.Text)
		}
		if err := syscall.Kill(p.Cmd.Process.Pid, syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		if st := p.Wait(t, 10*time.Second); st != -1 {
			t.Fatalf("serve --http exited %d, want killed", st)
		}
		recs := auditLog(t, f)
		if s := lastRun(t, recs).Session; s == "" || s == "cli" || lastRun(t, recs).Remote != "127.0.0.1" {
			t.Errorf("the run's record over HTTP: session %q remote %q", s, lastRun(t, recs).Remote)
		}
		check(t, f, lastRun(t, recs).Session)
	})
	t.Run("stdio", func(t *testing.T) {
		f := clitest.NewFixture(t, "[limits]\nwarm = 0\n")
		c, cmd, _ := f.StdioServe(t, "serve", "--config", f.Config)
		res := clitest.RunPython(t, c, map[string]any{"code": code, "servers": []string{"test"}})
		if res.Structured.Stdout != fmt.Sprintf("%d\n", calls) {
			t.Fatalf("the run: %q", res.Text)
		}
		if err := cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		_ = c.Close() // reaps it
		check(t, f, "stdio")
	})
}

// Rotation keeps audit.log and `keep` rotated files, each within max_bytes;
// log reads across them, oldest first, and --since leaves out what came
// before.
func TestTheAuditLogRotatesAndLogReadsAcrossTheFiles(t *testing.T) {
	clitest.NeedEngine(t)
	f := clitest.NewFixture(t, "[audit]\nmax_bytes = 4096\nkeep = 2\n")
	const runs, calls = 5, 12
	prog := fmt.Sprintf("for i in range(%d):\n    await mcp_test.add(a=i, b=1)\n", calls)
	for range runs {
		if r := f.CLI(t, "run", "--servers", "test", "-c", prog); r.Code != 0 {
			t.Fatalf("run: exit %d: %s", r.Code, r.Stderr)
		}
	}
	files, err := audit.Files(auditDir(f))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range files {
		names = append(names, filepath.Base(p))
		fi, err := os.Stat(p)
		if err != nil || fi.Size() > 4096 || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v, %d bytes (max 4096), mode %v", p, err, fi.Size(), fi.Mode().Perm())
		}
	}
	if want := []string{"audit.log.2", "audit.log.1", "audit.log"}; !slices.Equal(names, want) {
		t.Fatalf("files %v, want %v", names, want)
	}
	recs := auditLog(t, f)
	if len(recs) >= runs*(calls+1) {
		t.Errorf("%d records read: with 3 files of 4096 bytes the oldest should have been dropped", len(recs))
	}
	for i := 1; i < len(recs); i++ {
		if recs[i].Time.Before(recs[i-1].Time) {
			t.Errorf("record %d is older than the one before it: not oldest first", i)
		}
	}
	last := lastRun(t, recs)
	if got, _ := callsOf(recs, last.Run); len(got) != calls {
		t.Errorf("the last run has %d call records, want %d", len(got), calls)
	}
	// --since a time between two runs: only what came after.
	var runEnds []auditRecord
	for _, r := range recs {
		if r.Kind == audit.KindRun {
			runEnds = append(runEnds, r)
		}
	}
	if len(runEnds) < 2 {
		t.Fatalf("only %d run records are left: the test cannot split them", len(runEnds))
	}
	split := runEnds[len(runEnds)-2].Time
	since := auditLog(t, f, "--since", split.Add(time.Microsecond).Format(time.RFC3339Nano))
	var after []auditRecord
	for _, r := range recs {
		if r.Time.After(split) {
			after = append(after, r)
		}
	}
	if len(since) != len(after) || len(since) != calls+1 || since[len(since)-1].Run != last.Run {
		t.Errorf("log --since %s: %d records, want the last run's %d", split.Format(time.RFC3339Nano), len(since), len(after))
	}
	if n := len(auditLog(t, f, "--since", "1h")); n != len(recs) {
		t.Errorf("log --since 1h: %d records, want all %d", n, len(recs))
	}
	if r := f.CLI(t, "log", "--since", "yesterday"); r.Code != 2 || !strings.Contains(r.Stderr, "RFC 3339") {
		t.Errorf("log --since yesterday: exit %d (want 2), %q", r.Code, r.Stderr)
	}
}

// log --follow prints a run's records as they are written (across a
// rotation) and goes on until it is interrupted.
func TestLogFollowShowsARunsRecordsAsTheyAreWritten(t *testing.T) {
	clitest.NeedEngine(t)
	f := clitest.NewFixture(t, "[audit]\nmax_bytes = 4096\nkeep = 5\n")
	p := f.Start(t, nil, nil, "log", "--follow", "--json", "--config", f.Config)
	p.WaitStderr(t, "waiting for one", 15*time.Second)
	const calls = 15 // more than one file holds
	prog := fmt.Sprintf("for i in range(%d):\n    await mcp_test.add(a=i, b=1)\n", calls)
	for n := 1; n <= 2; n++ {
		if r := f.CLI(t, "run", "--servers", "test", "-c", prog); r.Code != 0 {
			t.Fatalf("run: exit %d: %s", r.Code, r.Stderr)
		}
		var seen []auditRecord
		for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			seen = nil
			for line := range strings.SplitSeq(p.Stdout.String(), "\n") {
				var r auditRecord
				if json.Unmarshal([]byte(line), &r) == nil && r.Kind != "" {
					seen = append(seen, r)
				}
			}
			if len(seen) == n*(calls+1) || time.Now().After(deadline) {
				break
			}
		}
		if len(seen) != n*(calls+1) || seen[len(seen)-1].Kind != audit.KindRun {
			t.Fatalf("after run %d, log --follow printed %d records, want %d:\n%s", n, len(seen), n*(calls+1), p.Stdout.String())
		}
		if got, _ := callsOf(seen, seen[len(seen)-1].Run); len(got) != calls {
			t.Errorf("run %d: %d of its %d calls followed", n, len(got), calls)
		}
	}
	if files, _ := audit.Files(auditDir(f)); len(files) < 2 {
		t.Errorf("%d files: the log did not rotate while followed", len(files))
	}
	_ = p.Cmd.Process.Signal(syscall.SIGINT)
	if code := p.Wait(t, 10*time.Second); code != 130 {
		t.Errorf("log --follow exited %d on SIGINT, want 130; stderr %q", code, p.Stderr.String())
	}
}
