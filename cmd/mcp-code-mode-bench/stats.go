package main

// Pure helpers: statistics, sizes, config text, parsing of what the
// processes under test print. No I/O here; bench_test.go covers them.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// summary describes a sample of durations.
type summary struct {
	N                 int
	Min, Median, P95  time.Duration
	Max, Mean, Stddev time.Duration
}

// summarize computes the order statistics of ds (nearest-rank percentiles;
// the median of an even sample is the mean of the two middle values).
func summarize(ds []time.Duration) summary {
	if len(ds) == 0 {
		return summary{}
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	n := len(s)
	var sum float64
	for _, d := range s {
		sum += float64(d)
	}
	mean := sum / float64(n)
	var sq float64
	for _, d := range s {
		sq += (float64(d) - mean) * (float64(d) - mean)
	}
	med := s[n/2]
	if n%2 == 0 {
		med = (s[n/2-1] + s[n/2]) / 2
	}
	return summary{
		N: n, Min: s[0], Max: s[n-1], Median: med, P95: percentile(s, 95),
		Mean: time.Duration(mean), Stddev: time.Duration(math.Sqrt(sq / float64(n))),
	}
}

// percentile is the nearest-rank p-th percentile of sorted.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(math.Ceil(p / 100 * float64(len(sorted))))
	return sorted[min(max(rank, 1), len(sorted))-1]
}

// ms formats a duration in milliseconds, with more digits when small.
func ms(d time.Duration) string {
	v := float64(d) / float64(time.Millisecond)
	switch {
	case math.Abs(v) < 1:
		return fmt.Sprintf("%.3f ms", v)
	case math.Abs(v) < 100:
		return fmt.Sprintf("%.1f ms", v)
	default:
		return fmt.Sprintf("%.0f ms", v)
	}
}

// us formats a duration in microseconds.
func us(d time.Duration) string {
	return fmt.Sprintf("%.0f µs", float64(d)/float64(time.Microsecond))
}

// tokens estimates the tokens of a text of n characters (≈ 4 per token).
func tokens(chars int) int { return (chars + 3) / 4 }

// vmRSS returns the VmRSS line of a /proc/PID/status text, in kB.
func vmRSS(status string) (int64, error) {
	for line := range strings.Lines(status) {
		rest, ok := strings.CutPrefix(line, "VmRSS:")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) != 2 || f[1] != "kB" {
			return 0, fmt.Errorf("malformed VmRSS line %q", strings.TrimSpace(line))
		}
		return strconv.ParseInt(f[0], 10, 64)
	}
	return 0, fmt.Errorf("no VmRSS line")
}

// memTotalKB returns MemTotal of a /proc/meminfo text, in kB.
func memTotalKB(meminfo string) int64 {
	for line := range strings.Lines(meminfo) {
		if rest, ok := strings.CutPrefix(line, "MemTotal:"); ok {
			f := strings.Fields(rest)
			if len(f) >= 1 {
				n, _ := strconv.ParseInt(f[0], 10, 64)
				return n
			}
		}
	}
	return 0
}

// tomlString quotes s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// serverConf is one [servers.NAME] entry of a generated config.
type serverConf struct {
	Name    string
	Command string
	Args    []string
}

// serveConfig renders a config file for serve: its servers, a catalog
// directory of its own, and extra [limits] keys (written in sorted order).
func serveConfig(catalogDir string, limits map[string]int, servers []serverConf) string {
	var b strings.Builder
	fmt.Fprintf(&b, "catalog_dir = %s\n", tomlString(catalogDir))
	if len(limits) > 0 {
		b.WriteString("\n[limits]\n")
		for _, k := range slices.Sorted(maps.Keys(limits)) {
			fmt.Fprintf(&b, "%s = %d\n", k, limits[k])
		}
	}
	for _, s := range servers {
		fmt.Fprintf(&b, "\n[servers.%s]\ncommand = %s\n", tomlString(s.Name), tomlString(s.Command))
		if len(s.Args) > 0 {
			q := make([]string, len(s.Args))
			for i, a := range s.Args {
				q[i] = tomlString(a)
			}
			fmt.Fprintf(&b, "args = [%s]\n", strings.Join(q, ", "))
		}
	}
	return b.String()
}

// cycleNames returns n server names taken in turn from base; the second
// round gets the suffix "-2", the third "-3", and so on.
func cycleNames(base []string, n int) []string {
	if len(base) == 0 {
		return nil
	}
	out := make([]string, n)
	for i := range n {
		name := base[i%len(base)]
		if round := i / len(base); round > 0 {
			name += "-" + strconv.Itoa(round+1)
		}
		out[i] = name
	}
	return out
}

// cycleSum adds up sizes[i % len(sizes)] for i < n.
func cycleSum(sizes []int, n int) int {
	if len(sizes) == 0 {
		return 0
	}
	total := 0
	for i := range n {
		total += sizes[i%len(sizes)]
	}
	return total
}

// catalog is a captured tools/list (testdata/catalogs/*.json).
type catalog struct {
	Server string            `json:"server"`
	Tools  []json.RawMessage `json:"tools"`
}

// toolsListSize is the length in characters of the compact JSON of a
// tools/list result ({"tools":[...]}) holding c's tools as captured.
func toolsListSize(c catalog) (int, error) {
	raw, err := json.Marshal(map[string]any{"tools": c.Tools})
	if err != nil {
		return 0, err
	}
	return jsonChars(raw)
}

// jsonChars is the length in characters of raw as compact JSON, with
// '<', '>' and '&' written as themselves (Go escapes them by default; a
// client shows a model the decoded text).
func jsonChars(raw []byte) (int, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return 0, err
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return 0, err
	}
	return utf8.RuneCount(bytes.TrimSuffix(b.Bytes(), []byte("\n"))), nil
}

// callTimes is what the per-call program prints: its start on the
// host's wall clock, and for each call when it was sent and how long it
// took (perf_counter), in microseconds from the start.
type callTimes struct {
	BaseNS int64      `json:"base_ns"`
	TotalS float64    `json:"total_s"`
	Calls  [][2]int64 `json:"calls"` // [sent_us, duration_us]
}

func parseCallTimes(stdout string) (callTimes, error) {
	var ct callTimes
	if err := json.Unmarshal([]byte(strings.TrimSpace(stdout)), &ct); err != nil {
		return ct, fmt.Errorf("program output %.200q: %w", stdout, err)
	}
	if len(ct.Calls) == 0 {
		return ct, fmt.Errorf("program output has no calls")
	}
	return ct, nil
}

// durations returns the per-call durations of ct.
func (ct callTimes) durations() []time.Duration {
	out := make([]time.Duration, len(ct.Calls))
	for i, c := range ct.Calls {
		out[i] = time.Duration(c[1]) * time.Microsecond
	}
	return out
}

// spans returns each call as a [sent, returned] span in Unix nanoseconds.
func (ct callTimes) spans() []span {
	out := make([]span, len(ct.Calls))
	for i, c := range ct.Calls {
		s := ct.BaseNS + c[0]*1000
		out[i] = span{s, s + c[1]*1000}
	}
	return out
}

// span is an interval in Unix nanoseconds.
type span struct{ Start, End int64 }

// serverCall is one line of the testserver's -log file.
type serverCall struct {
	Tool          string `json:"tool"`
	StartUnixNano int64  `json:"start_unix_nano"`
	EndUnixNano   int64  `json:"end_unix_nano"`
}

func parseCallLog(text string) ([]serverCall, error) {
	var out []serverCall
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 0, 64<<10), 4<<20)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var c serverCall
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			return nil, fmt.Errorf("call log line %q: %w", sc.Text(), err)
		}
		out = append(out, c)
	}
	return out, sc.Err()
}

// legs splits client-side call spans, matched in order with the server's
// records of them, into the request leg (client sent → server handler
// began), the handler, and the reply leg (handler ended → client had the
// answer). It reports the medians of the three.
type legStats struct {
	Request, Handler, Reply time.Duration
	N                       int
}

func legs(client []span, server []serverCall) (legStats, error) {
	if len(client) != len(server) {
		return legStats{}, fmt.Errorf("%d client calls but %d server records", len(client), len(server))
	}
	var req, hdl, rep []time.Duration
	for i := range client {
		req = append(req, time.Duration(server[i].StartUnixNano-client[i].Start))
		hdl = append(hdl, time.Duration(server[i].EndUnixNano-server[i].StartUnixNano))
		rep = append(rep, time.Duration(client[i].End-server[i].EndUnixNano))
	}
	return legStats{Request: summarize(req).Median, Handler: summarize(hdl).Median, Reply: summarize(rep).Median, N: len(client)}, nil
}

// maxOverlap is the largest number of spans open at one instant (an end
// and a start at the same instant do not overlap).
func maxOverlap(spans []span) int {
	type edge struct {
		t     int64
		delta int
	}
	edges := make([]edge, 0, 2*len(spans))
	for _, s := range spans {
		edges = append(edges, edge{s.Start, 1}, edge{s.End, -1})
	}
	slices.SortFunc(edges, func(a, b edge) int {
		if a.t != b.t {
			return cmpInt64(a.t, b.t)
		}
		return a.delta - b.delta // ends first
	})
	open, best := 0, 0
	for _, e := range edges {
		open += e.delta
		best = max(best, open)
	}
	return best
}

func cmpInt64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// dockerEvent is one container event of the engine.
type dockerEvent struct {
	ID       string
	Action   string // create, attach, start, die, destroy, ...
	Type     string // container
	TimeNano int64  // Unix nanoseconds
}

// containerLife is what the engine reported about one container.
type containerLife struct {
	ID                   string
	Create, Start, Die   int64 // Unix nanoseconds; 0 when not seen
	Destroy, AttachEvent int64
}

// lives groups container events by container, in order of creation.
func lives(events []dockerEvent) []*containerLife {
	byID := map[string]*containerLife{}
	var order []*containerLife
	for _, e := range events {
		if e.Type != "" && e.Type != "container" {
			continue
		}
		switch e.Action {
		case "create", "attach", "start", "die", "destroy":
		default:
			continue
		}
		l := byID[e.ID]
		if l == nil {
			l = &containerLife{ID: e.ID}
			byID[e.ID] = l
			order = append(order, l)
		}
		set := func(p *int64) {
			if *p == 0 {
				*p = e.TimeNano
			}
		}
		switch e.Action {
		case "create":
			set(&l.Create)
		case "attach":
			set(&l.AttachEvent)
		case "start":
			set(&l.Start)
		case "die":
			set(&l.Die)
		case "destroy":
			set(&l.Destroy)
		}
	}
	slices.SortStableFunc(order, func(a, b *containerLife) int { return cmpInt64(a.Create, b.Create) })
	return order
}

// poolView matches runs (client-side spans) with the containers that died
// during them, and reports how many runs found their container already
// started (created before the run began) and the engine's create→start
// times of all containers seen.
type poolView struct {
	Runs, Matched, Warm int
	CreateToStart       summary
	// DieToAnswer is, for the matched runs, the time from the container's
	// exit to the client having the answer.
	DieToAnswer summary
	// WarmRuns and ColdRuns are the client-side times of the matched runs
	// that found their container started, and of those that did not.
	WarmRuns, ColdRuns summary
}

func matchPool(runs []span, cs []*containerLife) poolView {
	v := poolView{Runs: len(runs)}
	var starts, tails []time.Duration
	for _, c := range cs {
		if c.Create != 0 && c.Start != 0 {
			starts = append(starts, time.Duration(c.Start-c.Create))
		}
	}
	var warm, cold []time.Duration
	used := map[*containerLife]bool{}
	for _, r := range runs {
		for _, c := range cs {
			if used[c] || c.Die == 0 || c.Die < r.Start || c.Die > r.End {
				continue
			}
			used[c] = true
			v.Matched++
			if c.Create != 0 && c.Create < r.Start {
				v.Warm++
				warm = append(warm, time.Duration(r.End-r.Start))
			} else {
				cold = append(cold, time.Duration(r.End-r.Start))
			}
			tails = append(tails, time.Duration(r.End-c.Die))
			break
		}
	}
	v.CreateToStart = summarize(starts)
	v.DieToAnswer = summarize(tails)
	v.WarmRuns, v.ColdRuns = summarize(warm), summarize(cold)
	return v
}

// verdict is a row's status against its target.
func verdict(met bool) string {
	if met {
		return "met"
	}
	return "**not met**"
}

// breakdown splits runs of a program that prints time.time_ns() into:
// request sent → program running, program → container exited (as the
// engine reported it), container exited → answer at the client.
type breakdown struct {
	N                                      int
	ToProgram, ProgramToExit, ExitToAnswer summary
}

func breakdownRuns(runs []span, stamps []int64, cs []*containerLife) breakdown {
	var a, b, c []time.Duration
	used := map[*containerLife]bool{}
	for i, r := range runs {
		if i >= len(stamps) {
			break
		}
		for _, l := range cs {
			if used[l] || l.Die == 0 || l.Die < r.Start || l.Die > r.End {
				continue
			}
			used[l] = true
			a = append(a, time.Duration(stamps[i]-r.Start))
			b = append(b, time.Duration(l.Die-stamps[i]))
			c = append(c, time.Duration(r.End-l.Die))
			break
		}
	}
	return breakdown{N: len(a), ToProgram: summarize(a), ProgramToExit: summarize(b), ExitToAnswer: summarize(c)}
}

// clockTick is the unit of utime and stime in /proc/PID/stat (USER_HZ,
// 100 on every Linux architecture Go supports).
const clockTick = 10 * time.Millisecond

// statCPU returns the user plus system CPU time of a /proc/PID/stat text.
func statCPU(stat string) (time.Duration, error) {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, fmt.Errorf("malformed stat %.80q", stat)
	}
	f := strings.Fields(stat[i+1:]) // field 3 of the line (state) is f[0]; utime (14) is f[11], stime (15) f[12]
	if len(f) < 13 {
		return 0, fmt.Errorf("malformed stat %.80q", stat)
	}
	u, err1 := strconv.ParseInt(f[11], 10, 64)
	s, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("malformed stat %.80q", stat)
	}
	return time.Duration(u+s) * clockTick, nil
}
