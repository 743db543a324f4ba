package state_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcp-code-mode/mcp-code-mode/internal/state"
)

func Example() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "state-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)

	st, err := state.Open(ctx, filepath.Join(dir, state.FileName), state.DefaultLimits())
	if err != nil {
		panic(err)
	}
	defer st.Close()

	const ns = "user:alice"
	v, _ := st.SaveMemory(ctx, ns, "greeting", json.RawMessage(`{"text": "hello"}`), json.RawMessage(`{"lang": "en"}`))
	m, _ := st.LoadMemory(ctx, ns, "greeting")
	fmt.Println(v, string(m.Value), string(m.Metadata))

	// update_memory: load, compute, swap; a conflict means someone wrote
	// in between: load again and retry.
	_, err = st.CompareAndSwapMemory(ctx, ns, "greeting", m.Version, json.RawMessage(`{"text":"hi"}`))
	fmt.Println(err)
	_, err = st.CompareAndSwapMemory(ctx, ns, "greeting", m.Version, json.RawMessage(`{"text":"hey"}`))
	fmt.Println(errors.Is(err, state.ErrConflict), err)

	// Other namespaces see nothing of it.
	_, err = st.LoadMemory(ctx, "user:bob", "greeting")
	fmt.Println(errors.Is(err, state.ErrNotFound))

	// A write over a limit is refused, and writes nothing.
	big := `"` + strings.Repeat("x", state.DefaultLimits().MaxValueBytes) + `"`
	_, err = st.SaveMemory(ctx, ns, "big", json.RawMessage(big), nil)
	fmt.Println(errors.Is(err, state.ErrLimit), err)
	// Output:
	// 1 {"text":"hello"} {"lang":"en"}
	// <nil>
	// true compare and swap memory: memory "greeting" changed: version 2, expected 1
	// true
	// true save memory: memory "big": the value's size in bytes (as compact ASCII JSON) would be 196610, over the limit of 196608 (max_value_bytes)
}
