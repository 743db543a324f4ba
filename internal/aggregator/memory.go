package aggregator

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/user"
	"strconv"
	"strings"
	"time"

	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
	"github.com/mcp-code-mode/mcp-code-mode/internal/runner"
	"github.com/mcp-code-mode/mcp-code-mode/internal/state"
)

// The state helpers: what the program's memory and saved-tool functions
// (save_memory, load_memory, update_memory, ..., save_tool, list_tools, and
// the import of user_tools) ask the host, answered from the state store
// (package state) in the run's namespace. The program never names a
// namespace: the front end that took the run decides it (Request.Namespace).

// Namespaces that the front ends give runs.
const (
	// NoAuthNamespace is the one namespace of every client of
	// serve --http --no-auth, which cannot be told apart.
	NoAuthNamespace = "http"
	// UserTools is the module saved tools are imported from, and the
	// server name the discovery helpers give them.
	UserTools = "user_tools"
)

// LocalNamespace is the namespace of the OS user running this process,
// "user:NAME" (or "uid:N" when the user has no name): the namespace of
// serve over stdio and of the CLI's runs, so they share their memories.
func LocalNamespace() string {
	if u, err := user.Current(); err == nil && u.Username != "" {
		if ns := "user:" + u.Username; state.CheckNamespace(ns) == nil {
			return ns
		}
	}
	return "uid:" + strconv.Itoa(os.Getuid())
}

// TokenNamespace is the namespace of the clients of serve --http that
// authenticate with token: "http:" and the first 32 hex digits of the
// token's SHA-256 (printf %s TOKEN | sha256sum | cut -c1-32).
func TokenNamespace(token string) string {
	sum := sha256.Sum256([]byte(token))
	return "http:" + hex.EncodeToString(sum[:16])
}

// namespaceKey carries a request's namespace in its context, from the front
// end that authenticated it (the HTTP guard) to the run.
type namespaceKey struct{}

func withNamespace(ctx context.Context, ns string) context.Context {
	return context.WithValue(ctx, namespaceKey{}, ns)
}

// namespaceFrom is the namespace the front end put in ctx, or "".
func namespaceFrom(ctx context.Context) string {
	ns, _ := ctx.Value(namespaceKey{}).(string)
	return ns
}

// namespace is the namespace of a run that asked for requested: the
// config's state.namespace when set, else requested, else the OS user's.
func (a *Aggregator) namespace(requested string) string {
	switch {
	case a.cfg.State.Namespace != "":
		return a.cfg.State.Namespace
	case requested != "":
		return requested
	}
	return a.localNS
}

// OpenState opens the state store that cfg names. With create false, a
// database file that does not exist yet is left so, and OpenState returns
// nil and no error: there is nothing to read.
func OpenState(ctx context.Context, cfg config.StateConfig, create bool) (*state.Store, error) {
	if cfg.Path == "" {
		return nil, errors.New("no state database: set path in the [state] table of the config file (there is no home directory to keep it in)")
	}
	if !create {
		if _, err := os.Stat(cfg.Path); errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
	}
	return state.Open(ctx, cfg.Path, cfg.Limits())
}

// stateStore returns the store, opened on first use (and kept until Close).
// With create false and no database file yet, it returns nil and no error.
func (a *Aggregator) stateStore(ctx context.Context, create bool) (*state.Store, error) {
	a.storeMu.Lock()
	defer a.storeMu.Unlock()
	if a.storeClosed {
		return nil, errors.New("the aggregator is closed")
	}
	if a.store != nil {
		return a.store, nil
	}
	st, err := OpenState(ctx, a.cfg.State, create)
	if err != nil || st == nil {
		return nil, err
	}
	a.store = st
	return st, nil
}

// closeState closes the store if it was opened; later uses fail.
func (a *Aggregator) closeState() {
	a.storeMu.Lock()
	defer a.storeMu.Unlock()
	a.storeClosed = true
	if a.store != nil {
		if err := a.store.Close(); err != nil {
			a.log.Warn("close the state database", "err", err)
		}
		a.store = nil
	}
}

// isStateMethod reports whether a runtime helper is answered from the
// state store.
func isStateMethod(method string) bool {
	switch method {
	case "save_memory", "load_memory", "compare_and_swap_memory", "delete_memory", "memory_exists",
		"get_memory_info", "list_memories", "save_tool", "get_tool", "delete_tool", "list_tools":
		return true
	}
	return false
}

// MemoryInfo is a memory as list_memories and get_memory_info describe it
// to the program (and `memory ls --json` to the user): all but its value.
type MemoryInfo struct {
	Key       string          `json:"key"`
	Size      int             `json:"size"`     // of the value, as compact JSON with non-ASCII characters escaped
	Metadata  json.RawMessage `json:"metadata"` // a JSON object; {} when it has none
	Version   int64           `json:"version"`
	CreatedAt string          `json:"created_at"` // RFC 3339, UTC
	UpdatedAt string          `json:"updated_at"`
}

// NewMemoryInfo describes m.
func NewMemoryInfo(m state.MemoryInfo) MemoryInfo {
	meta := m.Metadata
	if meta == nil {
		meta = json.RawMessage(`{}`)
	}
	return MemoryInfo{Key: m.Key, Size: m.Size, Metadata: meta, Version: m.Version, CreatedAt: Timestamp(m.CreatedAt), UpdatedAt: Timestamp(m.UpdatedAt)}
}

// SavedTool is a saved tool as list_tools describes it to the program (and
// `saved-tools ls --json` to the user): all but its source.
type SavedTool struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Signature   string `json:"signature,omitempty"` // "def name(a, b=1)", from the source
	SourceBytes int    `json:"source_bytes"`
	CreatedAt   string `json:"created_at"`
	UpdatedAt   string `json:"updated_at"`
}

// Timestamp is how times of the state store are shown: RFC 3339 in UTC,
// to the millisecond (Python's datetime.fromisoformat reads it).
func Timestamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z07:00") }

// maxListBytes bounds the answer of list_memories, which must fit a reply
// line (runner.MaxHostLine) with room to spare.
const maxListBytes = runner.MaxHostLine - 256<<10

// maxStateDepth bounds the nesting of a value or metadata a program saves:
// the answers that carry it back (load_memory, list_memories) wrap it in
// up to two more levels, and the runner takes at most runner.MaxDepth.
const maxStateDepth = runner.MaxDepth - 2

// stateParams are the parameters of every state helper.
type stateParams struct {
	Key         *string         `json:"key"`
	Value       json.RawMessage `json:"value"`
	Metadata    json.RawMessage `json:"metadata"`
	Expected    *int64          `json:"expected"`
	Prefix      string          `json:"prefix"`
	Name        *string         `json:"name"`
	Source      string          `json:"source"`
	Description string          `json:"description"`
}

// stateHelper answers one state helper in namespace ns. The answer is the
// program's own data (what it, or the user with the CLI, saved): it is
// given back as it was stored, without redaction.
func (a *Aggregator) stateHelper(ctx context.Context, ns, method string, raw json.RawMessage) (json.RawMessage, error) {
	var p stateParams
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, refuse("%s: bad arguments", method)
	}
	key := func() (string, error) {
		if p.Key == nil {
			return "", refuse("%s: a key (a string) is required", method)
		}
		return *p.Key, nil
	}
	name := func() (string, error) {
		if p.Name == nil {
			return "", refuse("%s: a name (a string) is required", method)
		}
		return *p.Name, nil
	}
	// Writes open (and if need be create) the database; reads of one that
	// does not exist yet find nothing.
	write := method == "save_memory" || method == "compare_and_swap_memory" || method == "save_tool"
	st, err := a.stateStore(ctx, write)
	if err != nil {
		a.log.Warn("state database", "err", err)
		return nil, refuse("%s: the state database could not be opened (the host's log says why)", method)
	}
	var v any
	switch method {
	case "save_memory", "compare_and_swap_memory":
		k, err := key()
		if err != nil {
			return nil, err
		}
		if p.Value == nil {
			return nil, refuse("%s(%s): a value is required", method, quoteKey(k))
		}
		if string(p.Metadata) == "null" {
			p.Metadata = nil
		}
		for what, b := range map[string]json.RawMessage{"value": p.Value, "metadata": p.Metadata} {
			if runner.Depth(b) > maxStateDepth {
				return nil, refuse("%s(%s): the %s nests deeper than %d levels", method, quoteKey(k), what, maxStateDepth)
			}
		}
		if method == "save_memory" {
			_, err = st.SaveMemory(ctx, ns, k, p.Value, p.Metadata)
			return a.stateAnswer(method, nil, err)
		}
		if p.Expected == nil {
			return nil, refuse("%s(%s): the expected version is required", method, quoteKey(k))
		}
		version, err := st.CompareAndSwapMemory(ctx, ns, k, *p.Expected, p.Value)
		if errors.Is(err, state.ErrConflict) {
			// The state it found, for the program's next try.
			cur, err := a.loadMemory(ctx, st, ns, k)
			if err != nil {
				return nil, a.stateError(method, err)
			}
			cur.Swapped = new(bool)
			return a.stateAnswer(method, cur, nil)
		}
		return a.stateAnswer(method, map[string]any{"swapped": true, "version": version}, err)
	case "load_memory":
		k, err := key()
		if err != nil {
			return nil, err
		}
		cur, err := a.loadMemory(ctx, st, ns, k)
		return a.stateAnswer(method, cur, err)
	case "delete_memory", "memory_exists":
		k, err := key()
		if err != nil {
			return nil, err
		}
		switch {
		case st == nil:
			v, err = false, state.CheckNamespace(ns)
		case method == "delete_memory":
			v, err = st.DeleteMemory(ctx, ns, k)
		default:
			v, err = st.MemoryExists(ctx, ns, k)
		}
		return a.stateAnswer(method, v, err)
	case "get_memory_info":
		k, err := key()
		if err != nil {
			return nil, err
		}
		if st == nil {
			return json.RawMessage("null"), state.CheckNamespace(ns)
		}
		m, err := st.LoadMemory(ctx, ns, k)
		if errors.Is(err, state.ErrNotFound) {
			return json.RawMessage("null"), nil
		}
		info := NewMemoryInfo(state.MemoryInfo{Key: m.Key, Size: len(m.Value), Metadata: m.Metadata, Version: m.Version, CreatedAt: m.CreatedAt, UpdatedAt: m.UpdatedAt})
		return a.stateAnswer(method, info, err)
	case "list_memories":
		out := []MemoryInfo{}
		if st == nil {
			return a.stateAnswer(method, out, state.CheckNamespace(ns))
		}
		list, err := st.ListMemories(ctx, ns)
		size := 0
		for _, m := range list {
			if !strings.HasPrefix(m.Key, p.Prefix) {
				continue
			}
			// The answer must fit one reply line: stop before building
			// one that could not be sent.
			if size += len(m.Key)*6 + len(m.Metadata) + 200; size > maxListBytes {
				return nil, refuse("list_memories: the memories' keys and metadata are more than one answer may carry (%d MiB): list fewer with list_memories(prefix=...)",
					runner.MaxHostLine>>20)
			}
			out = append(out, NewMemoryInfo(m))
		}
		return a.stateAnswer(method, out, err)
	case "save_tool":
		n, err := name()
		if err != nil {
			return nil, err
		}
		if err := CheckToolName(n); err != nil {
			return nil, refuse("save_tool: %v", err)
		}
		return a.stateAnswer(method, nil, st.SaveTool(ctx, ns, n, p.Source, p.Description))
	case "get_tool":
		n, err := name()
		if err != nil {
			return nil, err
		}
		if st == nil {
			return json.RawMessage("null"), nil
		}
		t, err := st.GetTool(ctx, ns, n)
		if errors.Is(err, state.ErrNotFound) {
			return json.RawMessage("null"), nil
		}
		return a.stateAnswer(method, map[string]string{"name": t.Name, "source": t.Source, "description": t.Description}, err)
	case "delete_tool":
		n, err := name()
		if err != nil {
			return nil, err
		}
		if st == nil {
			return a.stateAnswer(method, false, state.CheckNamespace(ns))
		}
		v, err = st.DeleteTool(ctx, ns, n)
		return a.stateAnswer(method, v, err)
	case "list_tools":
		tools, err := a.savedTools(ctx, st, ns)
		if err != nil {
			return nil, a.stateError(method, err)
		}
		out := make([]SavedTool, 0, len(tools))
		for _, t := range tools {
			out = append(out, t.info)
		}
		return a.stateAnswer(method, out, nil)
	}
	return nil, refuse("unknown runtime helper %q", method)
}

// memoryState is what load_memory answers, and a failed
// compare_and_swap_memory (with Swapped false): whether the key has a
// memory, and its value and version (0 when it has none).
type memoryState struct {
	Swapped *bool           `json:"swapped,omitempty"`
	Found   bool            `json:"found"`
	Value   json.RawMessage `json:"value"`
	Version int64           `json:"version"`
}

func (a *Aggregator) loadMemory(ctx context.Context, st *state.Store, ns, key string) (memoryState, error) {
	if st == nil {
		return memoryState{Value: json.RawMessage("null")}, state.CheckNamespace(ns)
	}
	m, err := st.LoadMemory(ctx, ns, key)
	if errors.Is(err, state.ErrNotFound) {
		return memoryState{Value: json.RawMessage("null")}, nil
	}
	if err != nil {
		return memoryState{}, err
	}
	return memoryState{Found: true, Value: m.Value, Version: m.Version}, nil
}

// stateAnswer encodes the answer v of a state helper, or turns err into
// what the program sees.
func (a *Aggregator) stateAnswer(method string, v any, err error) (json.RawMessage, error) {
	if err != nil {
		return nil, a.stateError(method, err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, &hostFault{kind: "EncodeError", err: err}
	}
	return b, nil
}

// stateError is what the program sees of a failure of the store: the
// reason for a refused write (a limit, with its config key; an invalid key
// or name), else only that the database failed (the log has the rest).
func (a *Aggregator) stateError(method string, err error) error {
	var le *state.LimitError
	var ie *state.InvalidError
	switch {
	case errors.As(err, &le):
		msg := strings.TrimSuffix(le.Error(), "("+le.Limit+")") + "(state." + le.Limit + " in the config)"
		return refuse("%s: %s; nothing was written", method, msg)
	case errors.As(err, &ie):
		return refuse("%s: %s", method, ie.Error())
	case errors.Is(err, state.ErrBusy):
		return refuse("%s: the state database is busy (other processes kept it locked); try again", method)
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return refuse("%s: the run ended during the call", method)
	}
	return &hostFault{kind: "StateError", err: err}
}

// quoteKey quotes a key for a refusal, cut to 64 bytes.
func quoteKey(k string) string {
	if len(k) > 64 {
		k = strings.ToValidUTF8(k[:64], "") + "..."
	}
	return strconv.Quote(k)
}

// pythonKeywords are the names a saved tool cannot have.
const pythonKeywords = " False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield "

// CheckToolName checks a saved tool's name: an ASCII Python identifier,
// not a keyword and not beginning with two underscores (the module's own
// names).
func CheckToolName(name string) error {
	ok := name != "" && !(name[0] >= '0' && name[0] <= '9')
	for _, c := range []byte(name) {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			ok = false
		}
	}
	switch {
	case !ok:
		return fmt.Errorf("the name %s is not a Python identifier of ASCII letters, digits and underscores", quoteKey(name))
	case strings.Contains(pythonKeywords, " "+name+" "):
		return fmt.Errorf("the name %q is a Python keyword", name)
	case strings.HasPrefix(name, "__"):
		return fmt.Errorf("the name %q begins with two underscores, which the module user_tools keeps for itself", name)
	}
	return nil
}
