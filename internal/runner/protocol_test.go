package runner

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

func TestParseMessage(t *testing.T) {
	tests := []struct {
		name string
		line string
		ok   bool
		want Message
	}{
		{"call", `{"type":"call","id":1,"server":"s","tool":"t","args":{"a":1}}`, true, Message{Type: TypeCall, ID: 1, Server: "s", Tool: "t"}},
		{"call with null args", `{"type":"call","id":2,"server":"s","tool":"t","args":null}`, true, Message{Type: TypeCall, ID: 2, Server: "s", Tool: "t"}},
		{"rpc", `{"type":"rpc","id":3,"method":"list_servers","params":{}}`, true, Message{Type: TypeRPC, ID: 3, Method: "list_servers"}},
		{"done ok", `{"type":"done","error":null}`, true, Message{Type: TypeDone}},
		{"done error", `{"type":"done","error":"boom"}`, true, Message{Type: TypeDone}},
		{"output", `{"type":"output","data":"hi\n"}`, true, Message{Type: TypeOutput}},
		{"output without data", `{"type":"output"}`, false, Message{}},
		{"output with id", `{"type":"output","id":1,"data":"x"}`, false, Message{}},
		{"output data not string", `{"type":"output","data":5}`, false, Message{}},
		{"done with data", `{"type":"done","error":null,"data":"x"}`, false, Message{}},
		{"empty", ``, false, Message{}},
		{"garbage", `hello world`, false, Message{}},
		{"array", `[1,2]`, false, Message{}},
		{"no type", `{"id":1}`, false, Message{}},
		{"unknown type", `{"type":"result","id":1}`, false, Message{}},
		{"unknown field", `{"type":"done","error":null,"x":1}`, false, Message{}},
		{"call without args", `{"type":"call","id":1,"server":"s","tool":"t"}`, false, Message{}},
		{"call with zero id", `{"type":"call","id":0,"server":"s","tool":"t","args":{}}`, false, Message{}},
		{"call with string id", `{"type":"call","id":"1","server":"s","tool":"t","args":{}}`, false, Message{}},
		{"call with float id", `{"type":"call","id":1.5,"server":"s","tool":"t","args":{}}`, false, Message{}},
		{"rpc params not object", `{"type":"rpc","id":1,"method":"m","params":[1]}`, false, Message{}},
		{"done with id", `{"type":"done","id":1,"error":null}`, false, Message{}},
		{"done error not string", `{"type":"done","error":5}`, false, Message{}},
		{"done with exit", `{"type":"done","error":"SystemExit: 3","exit":3}`, true, Message{Type: TypeDone, Exit: 3}},
		{"done with exit 255", `{"type":"done","error":"SystemExit: 255","exit":255}`, true, Message{Type: TypeDone, Exit: 255}},
		{"done with exit 0", `{"type":"done","error":"x","exit":0}`, false, Message{}},
		{"done with exit 256", `{"type":"done","error":"x","exit":256}`, false, Message{}},
		{"done with negative exit", `{"type":"done","error":"x","exit":-1}`, false, Message{}},
		{"done with exit but no error", `{"type":"done","error":null,"exit":3}`, false, Message{}},
		{"done with exit not a number", `{"type":"done","error":"x","exit":"3"}`, false, Message{}},
		{"call with exit", `{"type":"call","id":1,"server":"s","tool":"t","args":{},"exit":1}`, false, Message{}},
		{"output with exit", `{"type":"output","data":"x","exit":1}`, false, Message{}},
		{"two objects", `{"type":"done","error":null}{"type":"done","error":null}`, false, Message{}},
		{"too long", `{"type":"done","error":"` + strings.Repeat("x", MaxLine) + `"}`, false, Message{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := ParseMessage([]byte(tt.line))
			if !tt.ok {
				if err == nil || !errors.Is(err, ErrProtocol) {
					t.Fatalf("ParseMessage(%.60q) = %+v, %v; want a protocol error", tt.line, m, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseMessage(%.60q): %v", tt.line, err)
			}
			if m.Type != tt.want.Type || m.ID != tt.want.ID || m.Server != tt.want.Server || m.Tool != tt.want.Tool || m.Method != tt.want.Method || m.Exit != tt.want.Exit {
				t.Fatalf("got %+v, want %+v", m, tt.want)
			}
		})
	}
}

// signed returns lines as the supervisor writes them under key, from line
// number first on.
func signed(key []byte, first uint64, lines ...string) string {
	var b strings.Builder
	for i, l := range lines {
		b.WriteString(MAC(key, first+uint64(i), []byte(l)) + " " + l + "\n")
	}
	return b.String()
}

func TestReader(t *testing.T) {
	key := NewKey()
	call := `{"type":"call","id":1,"server":"s","tool":"t","args":{}}`
	done := `{"type":"done","error":null}`
	r := NewReader(strings.NewReader(signed(key, 0, call, done)), key)
	for _, want := range []string{TypeCall, TypeDone} {
		m, err := r.Next()
		if err != nil || m.Type != want {
			t.Fatalf("Next() = %+v, %v; want type %s", m, err, want)
		}
	}
	if _, err := r.Next(); err != io.EOF {
		t.Fatalf("Next() at end = %v, want io.EOF", err)
	}
	if _, err := NewReader(strings.NewReader(`{"type":"done"`), key).Next(); err != io.ErrUnexpectedEOF {
		t.Fatalf("partial line: %v, want io.ErrUnexpectedEOF", err)
	}
	long := strings.Repeat("a", 3*MaxLine) + "\n"
	if _, err := NewReader(strings.NewReader(long), key).Next(); !errors.Is(err, ErrProtocol) {
		t.Fatalf("long line: %v, want protocol error", err)
	}
}

// A line the program put on the stream, or one replayed, reordered or
// signed with another key, ends the run: the attack is forging a call or
// an early "done" from inside the sandbox.
func TestReaderRefusesLinesWithoutTheRunsCode(t *testing.T) {
	key := NewKey()
	call := `{"type":"call","id":1,"server":"s","tool":"t","args":{}}`
	done := `{"type":"done","error":null}`
	cases := map[string]string{
		"no code":       call + "\n",
		"another key":   signed(NewKey(), 0, call),
		"replayed line": signed(key, 0, call) + signed(key, 0, call),
		"reordered":     signed(key, 1, call) + signed(key, 0, done),
		"code of a cut line": func() string {
			l := signed(key, 0, call)
			return l[:len(l)-3] + "}\n"
		}(),
		"short code":     MAC(key, 0, []byte(call))[:31] + " " + call + "\n",
		"upper-case hex": strings.ToUpper(MAC(key, 0, []byte(call))) + " " + call + "\n",
	}
	for name, in := range cases {
		r := NewReader(strings.NewReader(in), key)
		var err error
		for err == nil {
			_, err = r.Next()
		}
		if !errors.Is(err, ErrProtocol) {
			t.Errorf("%s: %v, want a protocol error", name, err)
		}
	}
}

func FuzzParseMessage(f *testing.F) {
	for _, s := range []string{
		`{"type":"call","id":1,"server":"s","tool":"t","args":{"a":1}}`,
		`{"type":"rpc","id":3,"method":"list_servers","params":{}}`,
		`{"type":"done","error":null}`,
		`{"type":"done","error":"x"}`,
		`{"type":"done","error":"SystemExit: 3","exit":3}`,
		`{"type":"output","data":"x"}`,
		`[]`, `{}`, `null`, "\x00",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		m, err := ParseMessage(line)
		if err != nil {
			if !errors.Is(err, ErrProtocol) {
				t.Fatalf("error %v does not wrap ErrProtocol", err)
			}
			return
		}
		switch m.Type {
		case TypeCall:
			if m.ID <= 0 || m.Args == nil {
				t.Fatalf("accepted bad call %+v", m)
			}
		case TypeRPC:
			if m.ID <= 0 || !isObject(m.Params) {
				t.Fatalf("accepted bad rpc %+v", m)
			}
		case TypeDone:
			if m.Exit != 0 && (m.Exit < 1 || m.Exit > 255 || m.Error == nil) {
				t.Fatalf("accepted bad done %+v", m)
			}
		case TypeOutput:
			if m.Exit != 0 {
				t.Fatalf("accepted output with an exit status %+v", m)
			}
		default:
			t.Fatalf("accepted unknown type %q", m.Type)
		}
		// Whatever is accepted reads back the same through a Reader.
		key := NewKey()
		m2, err := NewReader(strings.NewReader(signed(key, 0, string(line))), key).Next()
		if err != nil && !strings.Contains(string(line), "\n") {
			t.Fatalf("Reader rejects what ParseMessage accepts: %v", err)
		}
		_ = m2
	})
}

func TestDepth(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{
		{`1`, 0},
		{`"[[["`, 0},
		{`[]`, 1},
		{`{"a":[{"b":[]}]}`, 4},
		{`["\"[", {"x": "\\"}, [[]]]`, 3},
		{strings.Repeat("[", 3000) + strings.Repeat("]", 3000), 3000},
	}
	for _, tt := range tests {
		if got := Depth([]byte(tt.in)); got != tt.want {
			t.Errorf("Depth(%.40s) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

// TestSessionLineIsTheRunners checks that the host's session line is the
// one the runner looks for, that its answer is the one the host waits for,
// and that it is shorter than any start line (so
// the runner, reading that many bytes first, never reads into a program).
func TestSessionLineIsTheRunners(t *testing.T) {
	for _, want := range []string{
		"SESSION_LINE = b'" + strings.TrimSuffix(SessionLine, "\n") + `\n'`,
		"SESSION_READY = b'" + strings.TrimSuffix(SessionReady, "\n") + `\n'`,
	} {
		if !bytes.Contains(Script, []byte(want)) {
			t.Fatalf("runner.py does not define %s", want)
		}
	}
	var b bytes.Buffer
	if err := Encode(&b, NewStart("", nil, nil, NewKey())); err != nil {
		t.Fatal(err)
	}
	if b.Len() <= len(SessionLine) {
		t.Fatalf("the shortest start line (%d bytes) is not longer than the session line (%d)", b.Len(), len(SessionLine))
	}
}
