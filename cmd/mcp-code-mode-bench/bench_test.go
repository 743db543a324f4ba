package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/knadh/koanf/parsers/toml/v2"
)

func msd(v ...int) []time.Duration {
	out := make([]time.Duration, len(v))
	for i, x := range v {
		out[i] = time.Duration(x) * time.Millisecond
	}
	return out
}

func TestSummarize(t *testing.T) {
	if s := summarize(nil); s.N != 0 || s.Median != 0 {
		t.Fatalf("empty: %+v", s)
	}
	s := summarize(msd(5, 1, 3, 2, 4))
	if s.N != 5 || s.Min != time.Millisecond || s.Max != 5*time.Millisecond || s.Median != 3*time.Millisecond || s.Mean != 3*time.Millisecond {
		t.Fatalf("odd: %+v", s)
	}
	if s := summarize(msd(4, 1, 3, 2)); s.Median != 2500*time.Microsecond {
		t.Fatalf("even median: %v", s.Median)
	}
	// Nearest rank: p95 of 20 values is the 19th, of 21 the 20th.
	var twenty []int
	for i := 1; i <= 20; i++ {
		twenty = append(twenty, i)
	}
	if p := summarize(msd(twenty...)).P95; p != 19*time.Millisecond {
		t.Fatalf("p95 of 1..20 = %v", p)
	}
	if p := summarize(msd(append(twenty, 21)...)).P95; p != 20*time.Millisecond {
		t.Fatalf("p95 of 1..21 = %v", p)
	}
	if p := summarize(msd(7)).P95; p != 7*time.Millisecond {
		t.Fatalf("p95 of one = %v", p)
	}
	in := msd(3, 1, 2)
	summarize(in)
	if in[0] != 3*time.Millisecond {
		t.Fatal("summarize sorted its input")
	}
}

func TestFormatting(t *testing.T) {
	for d, want := range map[time.Duration]string{
		250 * time.Microsecond:   "0.250 ms",
		12340 * time.Microsecond: "12.3 ms",
		218 * time.Millisecond:   "218 ms",
	} {
		if got := ms(d); got != want {
			t.Errorf("ms(%v) = %q, want %q", d, got, want)
		}
	}
	if got := us(1500 * time.Microsecond); got != "1500 µs" {
		t.Errorf("us = %q", got)
	}
	if got := mb(39063); got != "40.0 MB" {
		t.Errorf("mb = %q", got)
	}
	if tokens(0) != 0 || tokens(1) != 1 || tokens(4) != 1 || tokens(5) != 2 || tokens(8000) != 2000 {
		t.Error("tokens is not ceil(chars/4)")
	}
}

func TestProcParsing(t *testing.T) {
	status := "Name:\tmcp-code-mode\nVmPeak:\t 1716296 kB\nVmRSS:\t   18640 kB\nThreads:\t9\n"
	if kb, err := vmRSS(status); err != nil || kb != 18640 {
		t.Fatalf("vmRSS = %d, %v", kb, err)
	}
	if _, err := vmRSS("Name:\tx\n"); err == nil {
		t.Fatal("no VmRSS line: want an error")
	}
	if _, err := vmRSS("VmRSS:\t12 MB\n"); err == nil {
		t.Fatal("odd unit: want an error")
	}
	if n := memTotalKB("MemTotal:       24683520 kB\nMemFree: 1 kB\n"); n != 24683520 {
		t.Fatalf("memTotalKB = %d", n)
	}
	// A command name with spaces and parentheses.
	stat := "4242 (a (b) c) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 17 0 0 20 0 9 0 12345 0 0"
	if d, err := statCPU(stat); err != nil || d != 2670*time.Millisecond {
		t.Fatalf("statCPU = %v, %v", d, err)
	}
	if _, err := statCPU("garbage"); err == nil {
		t.Fatal("statCPU of garbage: want an error")
	}
}

func TestServeConfigParsesAsTOML(t *testing.T) {
	text := serveConfig(`/tmp/a "b"\c`, map[string]int{"warm": 0, "server_concurrency": 100}, []serverConf{
		{Name: "t", Command: "/bin/testserver", Args: []string{"-name", "t", "-log", "/tmp/x\ty.jsonl"}},
		{Name: "github-2", Command: "/bin/true"},
	})
	m, err := toml.Parser().Unmarshal([]byte(text))
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	if m["catalog_dir"] != `/tmp/a "b"\c` {
		t.Errorf("catalog_dir = %q", m["catalog_dir"])
	}
	limits := m["limits"].(map[string]any)
	if limits["warm"] != int64(0) || limits["server_concurrency"] != int64(100) {
		t.Errorf("limits = %v", limits)
	}
	servers := m["servers"].(map[string]any)
	ts := servers["t"].(map[string]any)
	if ts["command"] != "/bin/testserver" || len(ts["args"].([]any)) != 4 || ts["args"].([]any)[3] != "/tmp/x\ty.jsonl" {
		t.Errorf("server t = %v", ts)
	}
	if _, ok := servers["github-2"].(map[string]any)["args"]; ok {
		t.Error("a server without args got args")
	}
	if strings.Index(text, "server_concurrency") > strings.Index(text, "warm") {
		t.Error("limits are not in sorted order")
	}
}

func TestCycling(t *testing.T) {
	got := cycleNames([]string{"a", "b", "c"}, 8)
	want := []string{"a", "b", "c", "a-2", "b-2", "c-2", "a-3", "b-3"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("cycleNames = %v", got)
	}
	seen := map[string]bool{}
	for _, n := range cycleNames([]string{"x", "y"}, 100) {
		if seen[n] {
			t.Fatalf("duplicate name %q", n)
		}
		seen[n] = true
	}
	if cycleNames(nil, 3) != nil {
		t.Fatal("no base names should give none")
	}
	if cycleSum([]int{1, 10, 100}, 7) != 1+10+100+1+10+100+1 || cycleSum(nil, 5) != 0 {
		t.Fatal("cycleSum")
	}
}

func TestToolsListSizeIsCompact(t *testing.T) {
	var c catalog
	if err := json.Unmarshal([]byte(`{"server":"s","tools":[ {"name": "a",  "description": "\u003cb>é</b>", "n": 1.50}, {"name": "b"} ]}`), &c); err != nil {
		t.Fatal(err)
	}
	n, err := toolsListSize(c)
	if err != nil {
		t.Fatal(err)
	}
	// Characters, not bytes; no HTML escaping.
	if want := len([]rune(`{"tools":[{"name":"a","description":"<b>é</b>","n":1.50},{"name":"b"}]}`)); n != want {
		t.Fatalf("size %d, want %d", n, want)
	}
}

func TestCallTimesAndLegs(t *testing.T) {
	out := `{"base_ns": 1000000000, "total_s": 0.0021, "calls": [[0, 1000], [1100, 900]]}` + "\n"
	ct, err := parseCallTimes(out)
	if err != nil {
		t.Fatal(err)
	}
	if d := ct.durations(); len(d) != 2 || d[0] != time.Millisecond || d[1] != 900*time.Microsecond {
		t.Fatalf("durations = %v", d)
	}
	sp := ct.spans()
	if sp[1].Start != 1_001_100_000 || sp[1].End != 1_002_000_000 {
		t.Fatalf("spans = %v", sp)
	}
	server := []serverCall{
		{Tool: "noop", StartUnixNano: 1_000_300_000, EndUnixNano: 1_000_310_000},
		{Tool: "noop", StartUnixNano: 1_001_400_000, EndUnixNano: 1_001_410_000},
	}
	l, err := legs(sp, server)
	if err != nil {
		t.Fatal(err)
	}
	// Requests 300 and 300 µs, handlers 10 µs, replies 690 and 590 µs.
	if l.Request != 300*time.Microsecond || l.Handler != 10*time.Microsecond || l.Reply != 640*time.Microsecond || l.N != 2 {
		t.Fatalf("legs = %+v", l)
	}
	if _, err := legs(sp, server[:1]); err == nil {
		t.Fatal("mismatched counts: want an error")
	}
	for _, bad := range []string{"", "1\n", `{"calls": []}`, "Traceback"} {
		if _, err := parseCallTimes(bad); err == nil {
			t.Errorf("parseCallTimes(%q): want an error", bad)
		}
	}
}

func TestParseCallLog(t *testing.T) {
	text := `{"tool":"noop","args":{},"start_unix_nano":5,"end_unix_nano":7}
{"tool":"sleep","args":{"ms":50},"start_unix_nano":8,"end_unix_nano":9,"unknown":false}

`
	calls, err := parseCallLog(text)
	if err != nil || len(calls) != 2 || calls[1].Tool != "sleep" || calls[1].EndUnixNano != 9 {
		t.Fatalf("parseCallLog = %+v, %v", calls, err)
	}
	if _, err := parseCallLog("{not json\n"); err == nil {
		t.Fatal("want an error for a bad line")
	}
}

func TestMaxOverlap(t *testing.T) {
	cases := []struct {
		spans []span
		want  int
	}{
		{nil, 0},
		{[]span{{0, 10}}, 1},
		{[]span{{0, 10}, {10, 20}}, 1}, // touching is not overlapping
		{[]span{{0, 10}, {5, 15}, {6, 7}, {20, 30}}, 3},
		{[]span{{0, 100}, {1, 2}, {3, 4}, {5, 6}}, 2},
	}
	for _, c := range cases {
		if got := maxOverlap(c.spans); got != c.want {
			t.Errorf("maxOverlap(%v) = %d, want %d", c.spans, got, c.want)
		}
	}
}

func TestPoolViewAndBreakdown(t *testing.T) {
	ev := func(id, action string, t int64) dockerEvent {
		return dockerEvent{ID: id, Action: action, Type: "container", TimeNano: t}
	}
	events := []dockerEvent{
		ev("w1", "create", 2), ev("w1", "attach", 3), ev("w1", "start", 100),
		ev("w2", "create", 5), ev("w2", "start", 120),
		ev("net", "connect", 6), // not a lifecycle action: ignored
		ev("w1", "die", 1050), ev("w1", "destroy", 1080),
		ev("c3", "create", 1100), ev("c3", "start", 1190), ev("c3", "die", 1250),
		ev("w2", "die", 9000), // outside every run
		{ID: "img", Action: "pull", Type: "image", TimeNano: 7},
	}
	cs := lives(events)
	if len(cs) != 3 || cs[0].ID != "w1" || cs[0].Destroy != 1080 || cs[0].AttachEvent != 3 {
		t.Fatalf("lives = %+v", cs)
	}
	runs := []span{{1000, 1060}, {1061, 1300}, {2000, 2100}}
	v := matchPool(runs, cs)
	if v.Runs != 3 || v.Matched != 2 || v.Warm != 1 {
		t.Fatalf("pool view = %+v", v)
	}
	if v.WarmRuns.N != 1 || v.WarmRuns.Median != 60 || v.ColdRuns.N != 1 || v.ColdRuns.Median != 239 {
		t.Fatalf("warm runs %+v, cold runs %+v", v.WarmRuns, v.ColdRuns)
	}
	if v.CreateToStart.N != 3 || v.CreateToStart.Median != 98 || v.DieToAnswer.N != 2 {
		t.Fatalf("create→start %+v, die→answer %+v", v.CreateToStart, v.DieToAnswer)
	}
	bd := breakdownRuns(runs[:2], []int64{1010, 1200}, cs)
	if bd.N != 2 || bd.ToProgram.Min != 10 || bd.ProgramToExit.Max != 50 || bd.ExitToAnswer.Min != 10 {
		t.Fatalf("breakdown = %+v", bd)
	}
	if bd := breakdownRuns(runs, nil, cs); bd.N != 0 {
		t.Fatalf("no stamps: %+v", bd)
	}
}

func TestPrograms(t *testing.T) {
	for _, p := range []string{noopProgram(200), gatherProgram(100, 50), sequentialProgram(100, 50)} {
		if !strings.Contains(p, "perf_counter") || strings.Contains(p, "\t") {
			t.Errorf("program without perf_counter or with tabs:\n%s", p)
		}
	}
	if !strings.Contains(noopProgram(7), "range(7)") || !strings.Contains(gatherProgram(3, 9), "sleep(ms=9) for _ in range(3)") {
		t.Error("counts not in the programs")
	}
	args := strings.Join(sandboxRunArgs("k=v", "img", "print(1)"), " ")
	for _, want := range []string{"--rm", "--network none", "--read-only", "--tmpfs /tmp:rw,noexec,nosuid,nodev,size=16m", "--user 65534:65534",
		"--cap-drop ALL", "--security-opt no-new-privileges", "--pids-limit 64", "--memory 256m", "--memory-swap 256m", "--cpus 1",
		"--ulimit nofile=64:64", " -i ", "--entrypoint python3 img -c print(1)"} {
		if !strings.Contains(args, want) {
			t.Errorf("docker run args lack %q: %s", want, args)
		}
	}
}

func TestReportRendersTargets(t *testing.T) {
	r := &report{header: []string{"date: x"}}
	r.spaced = msd(10, 12, 14)
	r.docker = msd(300, 310, 320)
	r.sandboxCalls, r.directCalls = msd(1, 1), msd(0, 0)
	r.sandboxTotal, r.directTotal = 1500*time.Microsecond, 300*time.Microsecond
	r.gather = gatherResult{Inside: 374 * time.Millisecond, Run: 444 * time.Millisecond, Overlap: 16}
	r.context = []contextRow{{Servers: 100, DescChars: 2239, ToolChars: 3228, CatalogChars: 2080294, CatalogTools: 1406}}
	r.idleRSS = 17400
	r.targets(&bench{o: options{n: 3, think: time.Second, calls: 2, sleeps: 100, sleepMS: 50, sample: 20 * time.Millisecond}})
	md := r.markdown()
	for _, want := range []string{
		"| 1a. `print(1)` every 1s: median (p95) | 12.0 ms (14.0 ms) | ≤ 30.0 ms | met |",
		"25.8× (docker run 310 ms", "| ≥ 30× | **not met** |",
		"0.600 ms (sandbox 0.750 ms − direct 0.150 ms per call) | ≤ 1.0 ms | met |",
		"374 ms in the program, run 444 ms | ≤ 300 ms | **not met** |",
		"≈ 807 tokens (description ≈ 560) vs ≈ 520074 tokens of their 1406 tools | < 2000 tokens | met |",
		"| 5. serve VmRSS idle (after start and one run) | 17.8 MB | ≤ 40 MB | met |",
		"4 waves × 50 ms = 200 ms",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q:\n%s", want, md)
		}
	}
	r = &report{dockerSkip: "skipped: no docker CLI on PATH"}
	r.targets(&bench{o: options{n: 1, calls: 1, sleeps: 1}})
	md = r.markdown()
	if !strings.Contains(md, "skipped: no docker CLI on PATH") || !strings.Contains(md, "not measured") {
		t.Errorf("a report without measurements:\n%s", md)
	}
}

func TestCleanerRunsOnceNewestFirst(t *testing.T) {
	var c cleaner
	var order []int
	for i := range 3 {
		c.add(func() { order = append(order, i) })
	}
	c.run()
	c.run()
	if len(order) != 3 || order[0] != 2 || order[2] != 0 {
		t.Fatalf("order = %v", order)
	}
}

func TestCleanEnvDropsOwnSettings(t *testing.T) {
	t.Setenv("MCP_CODE_MODE_LIMITS__WARM", "7")
	env := cleanEnv("MCP_CODE_MODE_LIMITS__WARM=0")
	n := 0
	for _, kv := range env {
		if strings.HasPrefix(kv, "MCP_CODE_MODE_") {
			n++
			if kv != "MCP_CODE_MODE_LIMITS__WARM=0" {
				t.Errorf("kept %q", kv)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d MCP_CODE_MODE_ variables", n)
	}
}

func TestMedianP95(t *testing.T) {
	if medianP95(summary{}) != "none" || !strings.Contains(medianP95(summarize(msd(1, 2, 3))), "median 2.0 ms") {
		t.Fatal("medianP95")
	}
}
