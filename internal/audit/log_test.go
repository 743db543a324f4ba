package audit

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// readAll reads every record of the log in dir, and the notes.
func readAll(t *testing.T, dir string) ([]Entry, []string) {
	t.Helper()
	var entries []Entry
	var notes []string
	err := Read(t.Context(), dir, ReadOptions{Note: func(n string) { notes = append(notes, n) }}, func(e Entry) error {
		entries = append(entries, e)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return entries, notes
}

func open(t *testing.T, opts Options) *Log {
	t.Helper()
	l, err := Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// A record is one line of at most MaxRecordBytes, whatever it is given:
// names, reasons and arguments of any length or content (newlines, quotes,
// control characters, a forged record) are escaped and cut, never split
// into lines of their own.
func TestRecordsAreBoundedLinesWhateverTheirFields(t *testing.T) {
	dir := t.TempDir()
	l := open(t, Options{Dir: dir, MaxBytes: 1 << 20, Keep: 1})
	forged := "\n{\"time\":\"2030-01-01T00:00:00Z\",\"kind\":\"call\",\"tool\":\"FORGED\"}\n"
	hostile := strings.Repeat("\x01\"\\"+forged, 400)
	args, _ := json.Marshal(map[string]string{"a": strings.Repeat("\x02", 3000)})
	calls := []Call{
		{Run: "r1", Session: "s", Server: "srv", Tool: "ok", ArgBytes: 2, Outcome: OK, Arguments: json.RawMessage(`{"a":1}`)},
		{Run: hostile, Session: hostile, Remote: hostile, Server: hostile, Tool: hostile, Outcome: Refused, Reason: hostile, Arguments: args},
		{Run: "r1", Server: "srv", Tool: "notjson", Outcome: Refused, Arguments: json.RawMessage(`{"a":` + forged)},
		{Run: "r1", Server: "srv", Tool: "big", Outcome: OK, Arguments: json.RawMessage(`{"a":"` + strings.Repeat("x", 5000) + `"}`)},
	}
	for _, c := range calls {
		if err := l.Call(c); err != nil {
			t.Fatal(err)
		}
	}
	servers := make([]string, 100)
	for i := range servers {
		servers[i] = strings.Repeat("é", 100) + strconv.Itoa(i)
	}
	if err := l.Run(Run{Run: "r1", Session: hostile, Servers: servers, Outcome: Error, Reason: hostile}); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
	if len(lines) != 5 {
		t.Fatalf("%d lines for 5 records:\n%s", len(lines), raw)
	}
	for i, line := range lines {
		if len(line)+1 > MaxRecordBytes {
			t.Errorf("record %d is %d bytes, over %d", i, len(line)+1, MaxRecordBytes)
		}
		if !json.Valid([]byte(line)) {
			t.Errorf("record %d is not JSON: %.200s", i, line)
		}
	}
	entries, notes := readAll(t, dir)
	if len(entries) != 5 || len(notes) != 0 {
		t.Fatalf("read back %d records, notes %q", len(entries), notes)
	}
	for _, e := range entries {
		if e.Tool == "FORGED" || e.Time.Year() == 2030 {
			t.Errorf("a forged record was read: %s", e.Line)
		}
	}
	var c Call
	_ = json.Unmarshal([]byte(lines[0]), &c)
	if string(c.Arguments) != `{"a":1}` || c.Kind != KindCall {
		t.Errorf("a small call's arguments: %s", lines[0])
	}
	c = Call{}
	_ = json.Unmarshal([]byte(lines[2]), &c)
	if c.Arguments != nil || !strings.HasPrefix(c.ArgumentsHead, `{"a":`) {
		t.Errorf("arguments that are not JSON should be kept as text: %s", lines[2])
	}
	c = Call{}
	_ = json.Unmarshal([]byte(lines[3]), &c)
	if c.Arguments != nil || len(c.ArgumentsHead) > MaxArgumentBytes || !strings.HasSuffix(c.ArgumentsHead, "…") {
		t.Errorf("arguments over %d bytes should be cut as text: %d bytes of head", MaxArgumentBytes, len(c.ArgumentsHead))
	}
	var r Run
	_ = json.Unmarshal([]byte(lines[4]), &r)
	if len(r.Servers) < 2 || !strings.Contains(r.Servers[len(r.Servers)-1], "more") {
		t.Errorf("a run's 100 servers should be named in part and counted: %q", r.Servers)
	}
}

// The log's directory and files are the owner's alone, and a file planted
// where the log goes (a link to another file, a FIFO) is refused, not
// written through.
func TestTheLogIsTheOwnersAloneAndIsNotWrittenThroughALink(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "audit")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, FileName), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	l := open(t, Options{Dir: dir, MaxBytes: 1 << 20})
	if err := l.Call(Call{Run: "r", Outcome: OK}); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]fs.FileMode{"": 0o700, FileName: 0o600, lockName: 0o600} {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s: mode %v, want %v", filepath.Join("audit", name), fi.Mode().Perm(), want)
		}
	}
	l.Close()

	// A link where the log goes, to a file of the user's.
	target := filepath.Join(base, "bashrc")
	if err := os.WriteFile(target, []byte("untouched\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	linked := filepath.Join(base, "linked")
	if err := os.Mkdir(linked, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(linked, FileName)); err != nil {
		t.Fatal(err)
	}
	l = open(t, Options{Dir: linked, MaxBytes: 1 << 20})
	if err := l.Call(Call{Run: "r", Outcome: OK}); err == nil {
		t.Error("a record was written through a symbolic link in place of the log")
	}
	if b, _ := os.ReadFile(target); string(b) != "untouched\n" {
		t.Errorf("the link's target was written: %q", b)
	}
	// A FIFO where the log goes: refused at once, not waited on.
	fifo := filepath.Join(base, "fifo")
	if err := os.Mkdir(fifo, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := mkfifo(filepath.Join(fifo, FileName)); err != nil {
		t.Fatal(err)
	}
	l = open(t, Options{Dir: fifo, MaxBytes: 1 << 20})
	if err := l.Call(Call{Run: "r", Outcome: OK}); err == nil {
		t.Error("a record was written to a FIFO in place of the log")
	}
}

// Rotation keeps audit.log and Keep rotated files, each within MaxBytes,
// and the reader gives the records kept, oldest first, without a gap.
func TestRotationKeepsNFilesAndTheReaderReadsThemInOrder(t *testing.T) {
	dir := t.TempDir()
	const keep, n = 3, 200
	l := open(t, Options{Dir: dir, MaxBytes: 4096, Keep: keep})
	for i := range n {
		if err := l.Call(Call{Run: "r", Tool: strconv.Itoa(i), Outcome: OK}); err != nil {
			t.Fatal(err)
		}
	}
	files, err := Files(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{FileName + ".3", FileName + ".2", FileName + ".1", FileName}
	var got []string
	for _, f := range files {
		got = append(got, filepath.Base(f))
		if fi, err := os.Stat(f); err != nil || fi.Size() > 4096 {
			t.Errorf("%s: %v, size over the 4096 bytes allowed", f, err)
		}
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("files %v, want %v", got, want)
	}
	entries, notes := readAll(t, dir)
	if len(notes) > 0 || len(entries) == 0 || len(entries) >= n {
		t.Fatalf("read %d records (notes %q): want the last ones of %d", len(entries), notes, n)
	}
	first, _ := strconv.Atoi(entries[0].Tool)
	for i, e := range entries {
		if e.Tool != strconv.Itoa(first+i) {
			t.Fatalf("record %d is call %s, want %d: out of order or a gap", i, e.Tool, first+i)
		}
	}
	if last := entries[len(entries)-1].Tool; last != strconv.Itoa(n-1) {
		t.Errorf("the last record read is call %s, want %d", last, n-1)
	}
	// Keep 0: the full file is dropped, nothing rotated is kept.
	dir0 := t.TempDir()
	l0 := open(t, Options{Dir: dir0, MaxBytes: 4096, Keep: 0})
	for i := range 50 {
		if err := l0.Call(Call{Run: "r", Tool: strconv.Itoa(i), Outcome: OK}); err != nil {
			t.Fatal(err)
		}
	}
	if files, _ := Files(dir0); len(files) != 1 {
		t.Errorf("keep = 0: files %v, want audit.log alone", files)
	}
}

// writerEnv makes the test binary a writer process (TestHelperWriter):
// DIR,ID,RECORDS,MAXBYTES.
const writerEnv = "AUDIT_TEST_WRITER"

// Goroutines of two processes append to one log, rotating it as they go:
// every record is there, whole, once.
func TestConcurrentWritersInTwoProcessesLoseAndSplitNothing(t *testing.T) {
	dir := t.TempDir()
	const perProcess, maxBytes = 2000, 32 << 10
	var procs []*exec.Cmd
	var outs []*bytes.Buffer
	for p := range 2 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperWriter$", "-test.count=1")
		cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s,p%d,%d,%d", writerEnv, dir, p, perProcess, maxBytes))
		out := &bytes.Buffer{}
		cmd.Stdout, cmd.Stderr = out, out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		procs, outs = append(procs, cmd), append(outs, out)
	}
	for i, cmd := range procs {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("writer %d: %v\n%s", i, err, outs[i])
		}
	}
	files, _ := Files(dir)
	if len(files) < 10 {
		t.Fatalf("only %d files: the writers did not rotate as the test means them to", len(files))
	}
	t.Logf("%d records in %d files", 2*perProcess, len(files))
	entries, notes := readAll(t, dir)
	if len(notes) > 0 {
		t.Errorf("the reader found lines that are not whole records: %q", notes[:min(5, len(notes))])
	}
	seen := map[string]int{}
	for _, e := range entries {
		seen[e.Session+"/"+e.Tool]++
	}
	for p := range 2 {
		for i := range perProcess {
			if k := fmt.Sprintf("p%d/%d", p, i); seen[k] != 1 {
				t.Fatalf("record %s is there %d times, want once (%d records read)", k, seen[k], len(entries))
			}
		}
	}
	if len(entries) != 2*perProcess {
		t.Errorf("%d records read, want %d", len(entries), 2*perProcess)
	}
}

// TestHelperWriter is a writer process of the test above.
func TestHelperWriter(t *testing.T) {
	spec := os.Getenv(writerEnv)
	if spec == "" {
		t.Skip("a helper: runs only as another test's writer process")
	}
	parts := strings.Split(spec, ",")
	n, _ := strconv.Atoi(parts[2])
	maxBytes, _ := strconv.ParseInt(parts[3], 10, 64)
	l := open(t, Options{Dir: parts[0], MaxBytes: maxBytes, Keep: 1000})
	var wg sync.WaitGroup
	const goroutines = 8
	for g := range goroutines {
		wg.Go(func() {
			for i := g; i < n; i += goroutines {
				// Records of different sizes, so that writes cross pages.
				if err := l.Call(Call{Run: "run", Session: parts[1], Tool: strconv.Itoa(i), Outcome: Refused, Reason: strings.Repeat("r", i%500)}); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
}

// Following the log gives every record as it is written, across
// rotations, until the context ends.
func TestFollowGivesEveryRecordAcrossRotations(t *testing.T) {
	dir := t.TempDir()
	l := open(t, Options{Dir: dir, MaxBytes: 4096, Keep: 1000})
	if err := l.Call(Call{Run: "r", Tool: "0", Outcome: OK}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	got := make(chan Entry, 1000)
	done := make(chan error, 1)
	go func() {
		done <- Read(ctx, dir, ReadOptions{Follow: true, Poll: 10 * time.Millisecond}, func(e Entry) error {
			got <- e
			return nil
		})
	}()
	const n = 300
	for i := 1; i < n; i++ {
		if err := l.Call(Call{Run: "r", Tool: strconv.Itoa(i), Outcome: OK}); err != nil {
			t.Fatal(err)
		}
		if i%50 == 0 {
			time.Sleep(30 * time.Millisecond) // let the follower catch up in the middle of rotations too
		}
	}
	if files, _ := Files(dir); len(files) < 10 {
		t.Fatalf("only %d files: no rotation to follow across", len(files))
	}
	for i := range n {
		select {
		case e := <-got:
			if e.Tool != strconv.Itoa(i) {
				t.Fatalf("record %d is call %s: out of order or a gap", i, e.Tool)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("following gave %d of %d records", i, n)
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Read returned %v after its context ended, want nil", err)
	}
}

// The reader holds no line over MaxLineBytes, skips it with a note, reads
// the record after a record cut short, and notes what is not a record.
func TestTheReaderSkipsLongLinesAndRecoversAfterACutRecord(t *testing.T) {
	dir := t.TempDir()
	rec := func(tool string) string {
		line, _ := encode(Call{Time: time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC), Kind: KindCall, Run: "r", Tool: tool, Outcome: OK})
		return string(line)
	}
	cutShort := rec("cut")[:40]
	content := rec("1") +
		strings.Repeat("x", 3*MaxLineBytes) + "\n" +
		rec("2") +
		cutShort + rec("3") +
		"not a record\n" +
		rec("4") +
		rec("5")[:30] // the last line, cut, without a newline
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	entries, notes := readAll(t, dir)
	var tools []string
	for _, e := range entries {
		tools = append(tools, e.Tool)
	}
	if strings.Join(tools, " ") != "1 2 3 4" {
		t.Errorf("records read %v, want 1 2 3 4", tools)
	}
	want := []string{"line 2 is over", "line 4 starts with a record cut short", "line 5 is not an audit record", "line 7 is not an audit record"}
	if len(notes) != len(want) {
		t.Fatalf("notes %q, want %d", notes, len(want))
	}
	for i, w := range want {
		if !strings.Contains(notes[i], w) {
			t.Errorf("note %d is %q, want it to say %q", i, notes[i], w)
		}
	}
	// Since leaves out the older records.
	var n int
	_ = Read(t.Context(), dir, ReadOptions{Since: time.Date(2026, 5, 2, 0, 0, 0, 0, time.UTC)}, func(Entry) error { n++; return nil })
	if n != 0 {
		t.Errorf("since a day after every record: %d records read", n)
	}
}

// Whatever bytes the log's files hold, reading them does not panic and
// gives only records.
func FuzzRead(f *testing.F) {
	line, _ := encode(Call{Time: time.Now(), Kind: KindCall, Run: "r", Tool: "t", Outcome: OK})
	f.Add(line)
	f.Add(append(line[:20:20], line...))
	f.Add([]byte("{\"time\":\"\n\n{}\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, FileName), b, 0o600); err != nil {
			t.Fatal(err)
		}
		err := Read(context.Background(), dir, ReadOptions{Note: func(string) {}}, func(e Entry) error {
			if e.Kind != KindCall && e.Kind != KindRun || e.Time.IsZero() || len(e.Line) > MaxLineBytes {
				t.Errorf("not a record: %q", e.Line)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}

func mkfifo(path string) error { return syscall.Mkfifo(path, 0o600) }

// BenchmarkCall is the cost of recording one call (a typical record of
// about 330 bytes: an HTTP session, no arguments).
func BenchmarkCall(b *testing.B) {
	l, err := Open(Options{Dir: b.TempDir(), MaxBytes: 10 << 20, Keep: 2})
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	c := Call{Run: "049b3b737edbf6f2", Session: "mcp-session-6f1c2a4e-8d3b-4b7e-9a51-3c2d1e0f9a8b", Remote: "127.0.0.1",
		Server: "github", Tool: "get_issue", ArgBytes: 48, ArgSHA256: strings.Repeat("ab", 32), Outcome: OK, DurationMS: 12.345, ResultBytes: 2048}
	for b.Loop() {
		if err := l.Call(c); err != nil {
			b.Fatal(err)
		}
	}
	c.Kind, c.Time = KindCall, time.Now().UTC().Truncate(time.Microsecond)
	line, _ := encode(c)
	b.ReportMetric(float64(len(line)), "bytes/record")
}
