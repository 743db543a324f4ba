package runner

import (
	"bufio"
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// The protocol between host and runner is one JSON object per line.
//
// Host to runner (container stdin): one Start, then one Reply per Call or RPC.
// Runner to host (container stdout): Calls, RPCs and Outputs (what the program
// printed, as data), and finally one Done, after all the output. The
// container's stderr carries only the runner's own failures.
//
// Each line from the runner starts with an authentication code and a space:
// the first 32 hex digits of HMAC-SHA256, under the key of the run's Start,
// of the line's number (from 0, 8 bytes big-endian) and its JSON. The key
// reaches only the runner's supervisor, before the program runs; a line the
// program managed to put on the stream (possible under gVisor, which lets it
// open the supervisor's descriptors through /proc), or a line replayed, cut
// or reordered, fails the check.

// A container serves one program (isolation "run") unless the host's first
// line is SessionLine (isolation "session"): then it serves program after
// program, each framed as above: one Start (a fresh key, its lines counted
// from 0 again), Replies, and the runner's lines up to its Done, after which
// the runner sends nothing until the next Start. Each program runs in a
// fresh supervisor and worker forked from a process that never read a
// program; between programs the runner kills every other process in the
// container and empties its writable places (/tmp, /dev/shm, /dev/mqueue)
// and System V IPC objects. Replies the host sent after a program ended
// are skipped. The container ends when the host closes its stdin. Before
// its first program the runner answers SessionLine with SessionReady, or
// ends if it cannot serve a session.

// SessionLine is the host's first line to a container that serves a
// session. It is shorter than any Start, which is how the runner tells the
// modes apart without reading into a program.
const SessionLine = `{"type":"session"}` + "\n"

// SessionReady is the runner's answer to SessionLine when it can serve a
// session, sent before any program, so without a key (no program has run
// in the container yet). A runner that cannot serve one (it is not PID 1,
// or the kernel keeps no list of System V IPC objects to clean, as under
// gVisor) says why on its stderr and exits instead: the host then learns
// from the first session's answer that this setup gives each run a
// container of its own, and no run fails for it.
const SessionReady = `{"type":"session_ready"}` + "\n"

// Message types sent by the runner.
const (
	TypeCall   = "call"   // a call of a wrapped tool
	TypeRPC    = "rpc"    // a call of a runtime helper (search, docs, ...)
	TypeDone   = "done"   // the program ended
	TypeOutput = "output" // printed output
)

// MaxLine is the longest line the host accepts from the runner. Arguments are
// limited to far less (16 KiB by default); this bounds the parser's memory.
const MaxLine = 256 << 10

// MaxHostLine is the longest line the runner accepts from the host (its
// MAX_HOST_LINE): a reply longer than this would end the run, so the host
// refuses to send one.
const MaxHostLine = 4 << 20

// MaxDepth is the deepest nesting of arrays and objects the host sends the
// runner in a value: far below Python's recursion limit, which a deeper
// value would hit while the supervisor decodes it.
const MaxDepth = 100

// Depth returns how deeply the arrays and objects of the JSON text b nest
// (0 for a scalar). It does not check that b is valid JSON.
func Depth(b []byte) int {
	depth, deepest, inString, escaped := 0, 0, false, false
	for _, c := range b {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			depth++
			deepest = max(deepest, depth)
		case c == ']' || c == '}':
			depth--
		}
	}
	return deepest
}

// ErrProtocol marks every violation of the protocol by the runner: anything
// that is not a well-formed message of a known type.
var ErrProtocol = errors.New("protocol violation")

// Message is one line from the runner, checked for shape.
type Message struct {
	Type   string          // TypeCall, TypeRPC or TypeDone
	ID     int64           // positive, unique per run (call and rpc)
	Server string          // call: the server's alias
	Tool   string          // call: the MCP tool name
	Args   json.RawMessage // call: the arguments, as sent (any JSON value; the bridge checks it)
	// TimeoutMS is a call's own deadline in milliseconds (timeout= in the
	// program); 0 when it set none. The bridge caps it.
	TimeoutMS int64
	Method    string          // rpc: the helper's name
	Params    json.RawMessage // rpc: a JSON object
	Error     *string         // done: nil when the program succeeded, else its traceback
	Exit      int             // done: the status the program exited with (sys.exit(N), 1..255); 0 when it did not say
	Data      string          // output: the text printed
}

// wireMessage is the JSON form; pointers tell absent fields from empty ones.
type wireMessage struct {
	Type      *string         `json:"type"`
	ID        *int64          `json:"id"`
	Server    *string         `json:"server"`
	Tool      *string         `json:"tool"`
	Args      json.RawMessage `json:"args"`
	TimeoutMS *int64          `json:"timeout_ms"`
	Method    *string         `json:"method"`
	Params    json.RawMessage `json:"params"`
	Error     *string         `json:"error"`
	Exit      *int            `json:"exit"`
	Data      *string         `json:"data"`
}

func violation(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrProtocol, fmt.Sprintf(format, args...))
}

// ParseMessage checks one line from the runner (without its newline). It
// accepts only a single JSON object of a known type with exactly the fields
// that type needs; anything else is an error wrapping ErrProtocol.
func ParseMessage(line []byte) (Message, error) {
	if len(line) > MaxLine {
		return Message{}, violation("line of %d bytes exceeds %d", len(line), MaxLine)
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	var w wireMessage
	if err := dec.Decode(&w); err != nil {
		return Message{}, violation("not a message: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return Message{}, violation("trailing data after the message")
	}
	if w.Type == nil {
		return Message{}, violation("message without a type")
	}
	m := Message{Type: *w.Type}
	switch m.Type {
	case TypeOutput:
		if w.Data == nil || w.ID != nil || w.Server != nil || w.Tool != nil || w.Args != nil || w.TimeoutMS != nil || w.Method != nil || w.Params != nil || w.Error != nil || w.Exit != nil {
			return Message{}, violation("output carries only data")
		}
		m.Data = *w.Data
		return m, nil
	case TypeCall:
		if w.ID == nil || w.Server == nil || w.Tool == nil || w.Args == nil || w.Method != nil || w.Params != nil || w.Error != nil || w.Data != nil || w.Exit != nil {
			return Message{}, violation("call needs exactly id, server, tool and args (and may have timeout_ms)")
		}
		m.ID, m.Server, m.Tool, m.Args = *w.ID, *w.Server, *w.Tool, w.Args
		if w.TimeoutMS != nil {
			if *w.TimeoutMS < 1 {
				return Message{}, violation("call's timeout_ms must be positive")
			}
			m.TimeoutMS = *w.TimeoutMS
		}
	case TypeRPC:
		if w.ID == nil || w.Method == nil || w.Params == nil || w.Server != nil || w.Tool != nil || w.Args != nil || w.TimeoutMS != nil || w.Error != nil || w.Data != nil || w.Exit != nil {
			return Message{}, violation("rpc needs exactly id, method and params")
		}
		if !isObject(w.Params) {
			return Message{}, violation("rpc params must be an object")
		}
		m.ID, m.Method, m.Params = *w.ID, *w.Method, w.Params
	case TypeDone:
		if w.ID != nil || w.Server != nil || w.Tool != nil || w.Args != nil || w.TimeoutMS != nil || w.Method != nil || w.Params != nil || w.Data != nil {
			return Message{}, violation("done carries only error and exit")
		}
		m.Error = w.Error
		if w.Exit != nil {
			if *w.Exit < 1 || *w.Exit > 255 || w.Error == nil {
				return Message{}, violation("done's exit must be 1 to 255, with an error")
			}
			m.Exit = *w.Exit
		}
	default:
		return Message{}, violation("unknown message type %.40q", m.Type)
	}
	if m.Type != TypeDone && m.ID <= 0 {
		return Message{}, violation("id must be positive")
	}
	return m, nil
}

func isObject(raw json.RawMessage) bool {
	raw = bytes.TrimLeft(raw, " \t\r\n")
	return len(raw) > 0 && raw[0] == '{'
}

// KeySize is the length of a run's key, in bytes.
const KeySize = 32

// macHex is how many hex digits of the HMAC a line carries (128 bits).
const macHex = 32

// NewKey returns a fresh random key for one run.
func NewKey() []byte {
	key := make([]byte, KeySize)
	_, _ = rand.Read(key) // never fails (crypto/rand)
	return key
}

// MAC returns the authentication code of the seq-th line (body is its JSON).
func MAC(key []byte, seq uint64, body []byte) string {
	m := hmac.New(sha256.New, key)
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], seq)
	m.Write(n[:])
	m.Write(body)
	return hex.EncodeToString(m.Sum(nil))[:macHex]
}

// Reader reads and checks messages from the runner's protocol stream.
type Reader struct {
	br  *bufio.Reader
	key []byte
	seq uint64 // number of the next line
}

// NewReader returns a Reader on r, checking each line against key.
func NewReader(r io.Reader, key []byte) *Reader {
	return &Reader{br: bufio.NewReaderSize(r, 64<<10), key: key}
}

// Next returns the next message. It returns io.EOF at a clean end of stream,
// io.ErrUnexpectedEOF for a partial last line, and an error wrapping
// ErrProtocol for a line that is too long, malformed, or fails its
// authentication code.
func (r *Reader) Next() (Message, error) {
	var line []byte
	for {
		chunk, err := r.br.ReadSlice('\n')
		if len(line)+len(chunk) > MaxLine+macHex+2 {
			return Message{}, violation("line exceeds %d bytes", MaxLine)
		}
		line = append(line, chunk...)
		switch {
		case err == nil:
			return r.check(line[:len(line)-1])
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			if len(line) == 0 {
				return Message{}, io.EOF
			}
			return Message{}, io.ErrUnexpectedEOF
		default:
			return Message{}, err
		}
	}
}

// check verifies a line's authentication code and parses its message.
func (r *Reader) check(line []byte) (Message, error) {
	seq := r.seq
	r.seq++
	mac, body, ok := bytes.Cut(line, []byte(" "))
	if !ok || len(mac) != macHex || !hmac.Equal(mac, []byte(MAC(r.key, seq, body))) {
		return Message{}, violation("line %d fails its authentication code", seq)
	}
	return ParseMessage(body)
}

// Start is the first message to the runner: the program, the modules it
// gets, the configured servers it does not get (so that a NameError for
// one of their modules can say to name the server), and the key (hex) that
// authenticates the runner's lines. The supervisor keeps the key; the
// program never sees it.
type Start struct {
	Type      string      `json:"type"` // "start"
	Code      string      `json:"code"`
	Modules   []Module    `json:"modules"`
	NotLoaded []NotLoaded `json:"not_loaded,omitempty"`
	Key       string      `json:"key"`
}

// NotLoaded is a configured server the run did not ask for, and the module
// it would have been.
type NotLoaded struct {
	Server string `json:"server"`
	Module string `json:"module"`
}

// Module is one wrapped server as the program sees it: `mcp_<alias>`.
type Module struct {
	Alias       string `json:"alias"`
	Module      string `json:"module"`
	Server      string `json:"server"`
	Description string `json:"description,omitempty"`
	Tools       []Tool `json:"tools"`
	// Denied are the server's tools the policy denies, by name only (no
	// doc, no parameters): they are not attributes of the module and are
	// in none of its listings, but calling one sends the call, which the
	// bridge refuses with a ToolError naming the rule.
	Denied []Tool `json:"denied,omitempty"`
}

// Tool is one allowed tool of a module.
type Tool struct {
	Name   string  `json:"name"` // MCP name
	Py     string  `json:"py"`   // Python identifier
	Doc    string  `json:"doc,omitempty"`
	Params []Param `json:"params,omitempty"`
}

// Param maps a parameter's Python identifier to its JSON name, in the order
// positional arguments fill them.
type Param struct {
	Name string `json:"name"`
	Py   string `json:"py"`
	// DropNone: the parameter is optional and its schema does not allow
	// null, so a None passed for it means "leave it out".
	DropNone bool `json:"drop_none,omitempty"`
}

// Reply answers one Call or RPC.
type Reply struct {
	Type  string          `json:"type"` // "result"
	ID    int64           `json:"id"`
	OK    bool            `json:"ok"`
	Value json.RawMessage `json:"value,omitempty"`
	Error string          `json:"error,omitempty"`
}

// NewStart returns a start message.
func NewStart(code string, modules []Module, notLoaded []NotLoaded, key []byte) Start {
	return Start{Type: "start", Code: code, Modules: modules, NotLoaded: notLoaded, Key: hex.EncodeToString(key)}
}

// Success returns the reply carrying value (JSON).
func Success(id int64, value json.RawMessage) Reply {
	return Reply{Type: "result", ID: id, OK: true, Value: value}
}

// Failure returns the reply that raises ToolError(msg) in the program.
func Failure(id int64, msg string) Reply {
	return Reply{Type: "result", ID: id, OK: false, Error: msg}
}

// Encode writes v as one protocol line.
func Encode(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode %T: %w", v, err)
	}
	b = append(b, '\n')
	_, err = w.Write(b)
	return err
}
