package state

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// openStore opens a new database in a directory of its own that Open must
// create, closed when the test ends.
func openStore(t testing.TB, limits Limits) *Store {
	t.Helper()
	s, err := Open(t.Context(), filepath.Join(t.TempDir(), "data", FileName), limits)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return s
}

func raw(s string) json.RawMessage { return json.RawMessage(s) }

func TestMemoryCRUD(t *testing.T) {
	ctx := t.Context()
	s := openStore(t, DefaultLimits())
	const ns = "user:alice"

	before := time.Now()
	v, err := s.SaveMemory(ctx, ns, "greeting", raw(` { "text" : "hello",  "n": [1, 2] } `), nil)
	if err != nil || v != 1 {
		t.Fatalf("SaveMemory = %d, %v; want version 1", v, err)
	}
	m, err := s.LoadMemory(ctx, ns, "greeting")
	if err != nil {
		t.Fatal(err)
	}
	if string(m.Value) != `{"text":"hello","n":[1,2]}` || m.Metadata != nil || m.Version != 1 || m.Key != "greeting" {
		t.Errorf("LoadMemory = %+v, want the value compacted, no metadata, version 1", m)
	}
	if m.CreatedAt.Before(before.Add(-time.Second)) || !m.CreatedAt.Equal(m.UpdatedAt) {
		t.Errorf("times: created %v, updated %v (saved after %v)", m.CreatedAt, m.UpdatedAt, before)
	}

	// Metadata set, kept when not given, cleared by {}.
	if v, err = s.SaveMemory(ctx, ns, "greeting", raw(`"hi"`), raw(`{"tags": ["a"]}`)); err != nil || v != 2 {
		t.Fatalf("SaveMemory with metadata = %d, %v; want version 2", v, err)
	}
	if v, err = s.SaveMemory(ctx, ns, "greeting", raw(`"hey"`), nil); err != nil || v != 3 {
		t.Fatalf("SaveMemory = %d, %v; want version 3", v, err)
	}
	m, err = s.LoadMemory(ctx, ns, "greeting")
	if err != nil {
		t.Fatal(err)
	}
	if string(m.Value) != `"hey"` || string(m.Metadata) != `{"tags":["a"]}` || m.Version != 3 {
		t.Errorf("after a save without metadata: %+v, want the metadata kept", m)
	}
	if m.UpdatedAt.Before(m.CreatedAt) {
		t.Errorf("updated %v before created %v", m.UpdatedAt, m.CreatedAt)
	}
	if _, err = s.SaveMemory(ctx, ns, "greeting", raw(`"hey"`), raw(`{}`)); err != nil {
		t.Fatal(err)
	}
	if m, err = s.LoadMemory(ctx, ns, "greeting"); err != nil || m.Metadata != nil {
		t.Errorf("after a save with {}: %+v, %v; want no metadata", m, err)
	}

	if _, err := s.SaveMemory(ctx, ns, "a-first", raw(`null`), raw(`{"k":1}`)); err != nil {
		t.Fatal(err)
	}
	list, err := s.ListMemories(ctx, ns)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].Key != "a-first" || list[1].Key != "greeting" ||
		list[0].Size != 4 || string(list[0].Metadata) != `{"k":1}` || list[1].Size != len(`"hey"`) || list[1].Version != 4 {
		t.Errorf("ListMemories = %+v", list)
	}

	for _, key := range []string{"greeting", "a-first"} {
		if ok, err := s.MemoryExists(ctx, ns, key); err != nil || !ok {
			t.Errorf("MemoryExists(%q) = %v, %v; want true", key, ok, err)
		}
	}
	if ok, err := s.DeleteMemory(ctx, ns, "greeting"); err != nil || !ok {
		t.Errorf("DeleteMemory = %v, %v; want true", ok, err)
	}
	if ok, err := s.DeleteMemory(ctx, ns, "greeting"); err != nil || ok {
		t.Errorf("DeleteMemory again = %v, %v; want false", ok, err)
	}
	if ok, err := s.MemoryExists(ctx, ns, "greeting"); err != nil || ok {
		t.Errorf("MemoryExists after delete = %v, %v; want false", ok, err)
	}
	if _, err := s.LoadMemory(ctx, ns, "greeting"); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), `"greeting"`) {
		t.Errorf("LoadMemory after delete: %v; want ErrNotFound naming the key", err)
	}
	if list, err = s.ListMemories(ctx, ns); err != nil || len(list) != 1 {
		t.Errorf("ListMemories after delete = %+v, %v", list, err)
	}
	checkUsage(t, s, ns)
}

func TestVersionNeverReusedAfterDelete(t *testing.T) {
	ctx := t.Context()
	s := openStore(t, DefaultLimits())
	for range 2 {
		if _, err := s.SaveMemory(ctx, "ns", "k", raw(`1`), nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.DeleteMemory(ctx, "ns", "k"); err != nil {
		t.Fatal(err)
	}
	// A reader that saw version 1 or 2 before the delete must not swap
	// over the key created again.
	v, err := s.SaveMemory(ctx, "ns", "k", raw(`2`), nil)
	if err != nil || v != 3 {
		t.Fatalf("SaveMemory after delete = %d, %v; want version 3", v, err)
	}
	for _, stale := range []int64{1, 2} {
		if _, err := s.CompareAndSwapMemory(ctx, "ns", "k", stale, raw(`9`)); !errors.Is(err, ErrConflict) {
			t.Errorf("CompareAndSwapMemory(expected %d) = %v, want a conflict", stale, err)
		}
	}
	// Another key created after the delete starts above it too.
	if v, err := s.SaveMemory(ctx, "ns", "other", raw(`2`), nil); err != nil || v != 3 {
		t.Errorf("SaveMemory of another key = %d, %v; want 3", v, err)
	}
}

func TestCompareAndSwap(t *testing.T) {
	ctx := t.Context()
	s := openStore(t, DefaultLimits())
	const ns, key = "ns", "counter"

	v, err := s.CompareAndSwapMemory(ctx, ns, key, 0, raw(`1`))
	if err != nil || v != 1 {
		t.Fatalf("create by CompareAndSwapMemory(0) = %d, %v", v, err)
	}
	var ce *ConflictError
	_, err = s.CompareAndSwapMemory(ctx, ns, key, 0, raw(`100`))
	if !errors.As(err, &ce) || ce.Expected != 0 || ce.Actual != 1 || ce.Key != key || !errors.Is(err, ErrConflict) {
		t.Errorf("CompareAndSwapMemory(0) on an existing key: %v, want a ConflictError{0, 1}", err)
	}

	if _, err := s.SaveMemory(ctx, ns, key, raw(`1`), raw(`{"unit":"runs"}`)); err != nil {
		t.Fatal(err)
	}
	if v, err = s.CompareAndSwapMemory(ctx, ns, key, 2, raw(`2`)); err != nil || v != 3 {
		t.Fatalf("CompareAndSwapMemory(2) = %d, %v; want 3", v, err)
	}
	_, err = s.CompareAndSwapMemory(ctx, ns, key, 2, raw(`100`))
	if !errors.As(err, &ce) || ce.Expected != 2 || ce.Actual != 3 {
		t.Errorf("stale CompareAndSwapMemory: %v, want a ConflictError{2, 3}", err)
	}
	m, err := s.LoadMemory(ctx, ns, key)
	if err != nil || string(m.Value) != `2` || m.Version != 3 || string(m.Metadata) != `{"unit":"runs"}` {
		t.Errorf("after the swaps: %+v, %v; want 2 at version 3, metadata kept", m, err)
	}

	_, err = s.CompareAndSwapMemory(ctx, ns, "missing", 5, raw(`1`))
	if !errors.As(err, &ce) || ce.Expected != 5 || ce.Actual != 0 {
		t.Errorf("CompareAndSwapMemory on a missing key: %v, want a ConflictError{5, 0}", err)
	}
	if ok, _ := s.MemoryExists(ctx, ns, "missing"); ok {
		t.Error("a failed swap created the key")
	}
	if _, err := s.CompareAndSwapMemory(ctx, ns, key, -1, raw(`1`)); !errors.Is(err, ErrInvalid) {
		t.Errorf("CompareAndSwapMemory(-1) = %v, want ErrInvalid", err)
	}
	checkUsage(t, s, ns)
}

func TestTools(t *testing.T) {
	ctx := t.Context()
	s := openStore(t, DefaultLimits())
	const ns = "ns"
	src := "async def run(x):\n    return x * 2\n"
	if err := s.SaveTool(ctx, ns, "double", src, "Doubles x."); err != nil {
		t.Fatal(err)
	}
	tool, err := s.GetTool(ctx, ns, "double")
	if err != nil || tool.Source != src || tool.Description != "Doubles x." || tool.Name != "double" || tool.CreatedAt.IsZero() {
		t.Fatalf("GetTool = %+v, %v", tool, err)
	}
	created := tool.CreatedAt
	src2 := "async def run(x):\n    return x + x  # é\n"
	if err := s.SaveTool(ctx, ns, "double", src2, "Doubles x, again."); err != nil {
		t.Fatal(err)
	}
	if tool, err = s.GetTool(ctx, ns, "double"); err != nil || tool.Source != src2 || !tool.CreatedAt.Equal(created) || tool.UpdatedAt.Before(created) {
		t.Errorf("GetTool after replacing = %+v, %v; want the new source, the first creation time", tool, err)
	}
	if err := s.SaveTool(ctx, ns, "a_tool", "pass\n", ""); err != nil {
		t.Fatal(err)
	}
	list, err := s.ListTools(ctx, ns)
	if err != nil || len(list) != 2 || list[0].Name != "a_tool" || list[1].Name != "double" ||
		list[1].SourceBytes != len(src2) || list[1].Description != "Doubles x, again." {
		t.Errorf("ListTools = %+v, %v", list, err)
	}
	checkUsage(t, s, ns)
	if ok, err := s.DeleteTool(ctx, ns, "double"); err != nil || !ok {
		t.Errorf("DeleteTool = %v, %v", ok, err)
	}
	if ok, err := s.DeleteTool(ctx, ns, "double"); err != nil || ok {
		t.Errorf("DeleteTool again = %v, %v; want false", ok, err)
	}
	if _, err := s.GetTool(ctx, ns, "double"); !errors.Is(err, ErrNotFound) {
		t.Errorf("GetTool after delete: %v, want ErrNotFound", err)
	}
	checkUsage(t, s, ns)
}

func TestNamespacesIsolated(t *testing.T) {
	ctx := t.Context()
	limits := DefaultLimits()
	limits.MaxKeys, limits.MaxTools = 2, 1
	s := openStore(t, limits)
	for _, ns := range []string{"a", "b"} {
		if _, err := s.SaveMemory(ctx, ns, "k", raw(strconv.Quote(ns)), nil); err != nil {
			t.Fatal(err)
		}
		if err := s.SaveTool(ctx, ns, "t", "print("+strconv.Quote(ns)+")", ns); err != nil {
			t.Fatal(err)
		}
	}
	// a fills its quota of keys; b is not counted against it.
	if _, err := s.SaveMemory(ctx, "a", "only-in-a", raw(`1`), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SaveMemory(ctx, "a", "third", raw(`1`), nil); !errors.Is(err, ErrLimit) {
		t.Errorf("a third key in a: %v, want ErrLimit", err)
	}
	if _, err := s.SaveMemory(ctx, "b", "second", raw(`1`), nil); err != nil {
		t.Errorf("b's second key: %v", err)
	}
	if ok, err := s.DeleteMemory(ctx, "b", "only-in-a"); err != nil || ok {
		t.Errorf("b deleted a's key: %v, %v", ok, err)
	}
	if ok, err := s.MemoryExists(ctx, "b", "only-in-a"); err != nil || ok {
		t.Errorf("b sees a's key: %v, %v", ok, err)
	}
	if _, err := s.CompareAndSwapMemory(ctx, "b", "k", 1, raw(`"b2"`)); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.DeleteTool(ctx, "b", "t"); err != nil || !ok {
		t.Fatal(ok, err)
	}
	for ns, want := range map[string]string{"a": `"a"`, "b": `"b2"`} {
		m, err := s.LoadMemory(ctx, ns, "k")
		if err != nil || string(m.Value) != want || m.Version != map[string]int64{"a": 1, "b": 2}[ns] {
			t.Errorf("%s's k = %+v, %v; want %s", ns, m, err, want)
		}
		checkUsage(t, s, ns)
	}
	if tool, err := s.GetTool(ctx, "a", "t"); err != nil || tool.Source != `print("a")` {
		t.Errorf("a's tool after b deleted its own: %+v, %v", tool, err)
	}
	la, _ := s.ListMemories(ctx, "a")
	lb, _ := s.ListMemories(ctx, "b")
	if len(la) != 2 || len(lb) != 2 || la[1].Key != "only-in-a" || lb[1].Key != "second" {
		t.Errorf("lists: a %+v, b %+v", la, lb)
	}
	if tb, _ := s.ListTools(ctx, "b"); len(tb) != 0 {
		t.Errorf("b's tools = %+v, want none", tb)
	}
	if _, err := s.ListMemories(ctx, "c"); err != nil {
		t.Errorf("an unused namespace: %v", err)
	}
}

// TestLimitsRefused tries each limit: the write fails with a LimitError
// that names the limit, its value and the key, and nothing changes.
func TestLimitsRefused(t *testing.T) {
	limits := Limits{
		MaxValueBytes:           100,
		MaxMetadataBytes:        30,
		MaxNamespaceBytes:       240,
		MaxKeys:                 3,
		MaxTools:                2,
		MaxToolSourceBytes:      80,
		MaxToolDescriptionBytes: 20,
		MaxNameBytes:            16,
	}
	big := func(n int) json.RawMessage { return raw(strconv.Quote(strings.Repeat("x", n-2))) }
	cases := []struct {
		name  string
		write func(ctx context.Context, s *Store) error
		limit string
		max   int64
		got   int64
		key   string
	}{
		{"value of a new key", func(ctx context.Context, s *Store) error {
			_, err := s.SaveMemory(ctx, "ns", "new", big(101), nil)
			return err
		}, "max_value_bytes", 100, 101, "new"},
		{"value of an existing key", func(ctx context.Context, s *Store) error {
			_, err := s.SaveMemory(ctx, "ns", "k1", big(200), nil)
			return err
		}, "max_value_bytes", 100, 200, "k1"},
		{"value by compare and swap", func(ctx context.Context, s *Store) error {
			_, err := s.CompareAndSwapMemory(ctx, "ns", "k1", 1, big(101))
			return err
		}, "max_value_bytes", 100, 101, "k1"},
		{"metadata", func(ctx context.Context, s *Store) error {
			_, err := s.SaveMemory(ctx, "ns", "k1", raw(`1`), raw(`{"a":"`+strings.Repeat("y", 30)+`"}`))
			return err
		}, "max_metadata_bytes", 30, 38, "k1"},
		{"keys", func(ctx context.Context, s *Store) error {
			_, err := s.SaveMemory(ctx, "ns", "k4", raw(`1`), nil)
			return err
		}, "max_keys", 3, 4, "k4"},
		{"namespace bytes", func(ctx context.Context, s *Store) error {
			// k3 grows by 40 bytes, to 249 in all.
			_, err := s.SaveMemory(ctx, "ns", "k3", big(100), nil)
			return err
		}, "max_namespace_bytes", 240, 249, "k3"},
		{"tools", func(ctx context.Context, s *Store) error {
			return s.SaveTool(ctx, "ns", "t3", "pass", "")
		}, "max_tools", 2, 3, "t3"},
		{"tool source", func(ctx context.Context, s *Store) error {
			return s.SaveTool(ctx, "ns", "t1", strings.Repeat("#", 81), "")
		}, "max_tool_source_bytes", 80, 81, "t1"},
		{"tool description", func(ctx context.Context, s *Store) error {
			return s.SaveTool(ctx, "ns", "t1", "pass", strings.Repeat("d", 21))
		}, "max_tool_description_bytes", 20, 21, "t1"},
		{"key length", func(ctx context.Context, s *Store) error {
			_, err := s.SaveMemory(ctx, "ns", strings.Repeat("k", 17), raw(`1`), nil)
			return err
		}, "max_name_bytes", 16, 17, strings.Repeat("k", 17)},
		{"tool name length", func(ctx context.Context, s *Store) error {
			return s.SaveTool(ctx, "ns", strings.Repeat("é", 9), "pass", "")
		}, "max_name_bytes", 16, 18, strings.Repeat("é", 9)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := t.Context()
			s := openStore(t, limits)
			// k1, k2, k3 (10, 59 and 69 bytes) and t1, t2 (9 and 62):
			// as many keys and tools as allowed, 209 bytes of 240.
			for i, v := range []json.RawMessage{raw(`1`), big(50), big(60)} {
				if _, err := s.SaveMemory(ctx, "ns", "k"+strconv.Itoa(i+1), v, raw(`{"i":1}`)); err != nil {
					t.Fatal(err)
				}
			}
			if err := s.SaveTool(ctx, "ns", "t1", "pass", "one"); err != nil {
				t.Fatal(err)
			}
			if err := s.SaveTool(ctx, "ns", "t2", strings.Repeat("#", 60), ""); err != nil {
				t.Fatal(err)
			}
			before := snapshot(t, s, "ns")

			err := c.write(ctx, s)
			var le *LimitError
			if !errors.As(err, &le) || !errors.Is(err, ErrLimit) {
				t.Fatalf("write = %v, want a LimitError", err)
			}
			if le.Limit != c.limit || le.Max != c.max || le.Key != c.key || le.Got != c.got {
				t.Errorf("LimitError = %+v, want limit %s, max %d, got %d, key %q", le, c.limit, c.max, c.got, c.key)
			}
			if msg := err.Error(); !strings.Contains(msg, c.limit) || !strings.Contains(msg, strconv.FormatInt(c.max, 10)) {
				t.Errorf("message %q does not name the limit and its value", msg)
			}
			if after := snapshot(t, s, "ns"); after != before {
				t.Errorf("a refused write changed the namespace:\nbefore %s\nafter  %s", before, after)
			}
			checkUsage(t, s, "ns")
		})
	}
}

// TestLimitLoweredStillAllowsShrinking: a namespace over a limit lowered
// since it was filled can still be cleaned up.
func TestLimitLoweredStillAllowsShrinking(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), FileName)
	s, err := Open(ctx, path, DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if _, err := s.SaveMemory(ctx, "ns", "k"+strconv.Itoa(i), raw(strconv.Quote(strings.Repeat("v", 100))), nil); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	low := DefaultLimits()
	low.MaxNamespaceBytes, low.MaxKeys = 100, 1
	s, err = Open(ctx, path, low)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.SaveMemory(ctx, "ns", "k0", raw(strconv.Quote(strings.Repeat("v", 101))), nil); !errors.Is(err, ErrLimit) {
		t.Errorf("growing a key over the lowered limit: %v, want ErrLimit", err)
	}
	if _, err := s.SaveMemory(ctx, "ns", "k0", raw(`"short"`), nil); err != nil {
		t.Errorf("shrinking a key: %v", err)
	}
	if _, err := s.DeleteMemory(ctx, "ns", "k1"); err != nil {
		t.Errorf("deleting a key: %v", err)
	}
	checkUsage(t, s, "ns")
}

// TestInvalidInputRefused: keys, names and namespaces with characters
// that could hide or forge text, and values that are not JSON, are
// refused with an InvalidError, and nothing is written.
func TestInvalidInputRefused(t *testing.T) {
	ctx := t.Context()
	s := openStore(t, DefaultLimits())
	badNames := map[string]string{
		"empty":              "",
		"NUL":                "a\x00b",
		"newline":            "line\nforged",
		"carriage return":    "a\rb",
		"escape":             "\x1b[31mred",
		"DEL":                "a\x7f",
		"C1 control":         "a\u0085b",
		"right-to-left mark": "abc\u202edcba",
		"zero-width space":   "a\u200bb",
		"no-break space":     "a\u00a0b",
		"line separator":     "a\u2028b",
		"invalid UTF-8":      "a\xffb",
		"cut UTF-8":          "\xc3",
		"leading space":      " a",
		"trailing space":     "a ",
		"tab":                "a\tb",
	}
	for name, bad := range badNames {
		t.Run(name, func(t *testing.T) {
			checks := map[string]error{}
			_, checks["key"] = s.SaveMemory(ctx, "ns", bad, raw(`1`), nil)
			_, checks["swap key"] = s.CompareAndSwapMemory(ctx, "ns", bad, 0, raw(`1`))
			_, checks["load key"] = s.LoadMemory(ctx, "ns", bad)
			checks["tool name"] = s.SaveTool(ctx, "ns", bad, "pass", "")
			_, checks["namespace"] = s.SaveMemory(ctx, bad, "k", raw(`1`), nil)
			_, checks["list namespace"] = s.ListMemories(ctx, bad)
			checks["tool namespace"] = s.SaveTool(ctx, bad, "t", "pass", "")
			for what, err := range checks {
				var ie *InvalidError
				if !errors.As(err, &ie) || !errors.Is(err, ErrInvalid) {
					t.Errorf("%s %q: %v, want an InvalidError", what, bad, err)
				}
			}
		})
	}
	badValues := map[string][2]string{
		"value not JSON":        {`{"a":`, ""},
		"value empty":           {``, ""},
		"value two values":      {`1 2`, ""},
		"metadata not JSON":     {`1`, `{`},
		"metadata not object":   {`1`, `[1]`},
		"metadata a string":     {`1`, `"x"`},
		"value with a raw NUL":  {"\"a\x00\"", ""},
		"value invalid unicode": {"\"\xff\"", ""},
	}
	for name, c := range badValues {
		var meta json.RawMessage
		if c[1] != "" {
			meta = raw(c[1])
		}
		if _, err := s.SaveMemory(ctx, "ns", "k", raw(c[0]), meta); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), `"k"`) {
			t.Errorf("%s: %v, want ErrInvalid naming the key", name, err)
		}
	}
	for name, c := range map[string][2]string{
		"empty source":           {"", ""},
		"NUL in source":          {"pass\x00", ""},
		"invalid UTF-8 source":   {"pass # \xff", ""},
		"NUL in description":     {"pass", "a\x00"},
		"invalid UTF-8 describe": {"pass", "\xfe"},
	} {
		if err := s.SaveTool(ctx, "ns", "t", c[0], c[1]); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: %v, want ErrInvalid", name, err)
		}
	}
	if _, err := s.SaveMemory(ctx, strings.Repeat("n", 513), "k", raw(`1`), nil); !errors.Is(err, ErrInvalid) {
		t.Errorf("a 513-byte namespace: %v, want ErrInvalid", err)
	}
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM memories) + (SELECT count(*) FROM tools) + (SELECT count(*) FROM namespaces)`).Scan(&n); err != nil || n != 0 {
		t.Errorf("rows written by refused writes: %d, %v", n, err)
	}
	// What is allowed: any printable text, the ASCII space inside.
	for _, good := range []string{"a b", "clé/été", "日本語", "emoji 🎉", "x", "a.b:c-d_e", "U+FFFD \ufffd"} {
		if _, err := s.SaveMemory(ctx, "ns", good, raw(`1`), nil); err != nil {
			t.Errorf("key %q: %v", good, err)
		}
		if m, err := s.LoadMemory(ctx, "ns", good); err != nil || m.Key != good {
			t.Errorf("LoadMemory(%q) = %+v, %v", good, m, err)
		}
	}
}

func TestOpenRefusesBadLimits(t *testing.T) {
	l := DefaultLimits()
	l.MaxKeys = 0
	if _, err := Open(t.Context(), filepath.Join(t.TempDir(), FileName), l); err == nil || !strings.Contains(err.Error(), "positive") {
		t.Errorf("Open with MaxKeys 0: %v, want an error", err)
	}
}

// TestFileModes: the database, its -wal and -shm files are 0600 and a
// directory Open creates is 0700, whatever the umask lets through; a file
// from before with a wider mode is narrowed.
func TestFileModes(t *testing.T) {
	ctx := t.Context()
	dir := filepath.Join(t.TempDir(), "a", "b")
	path := filepath.Join(dir, FileName)
	s, err := Open(ctx, path, DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.SaveMemory(ctx, "ns", "k", raw(`1`), nil); err != nil {
		t.Fatal(err)
	}
	wantMode(t, dir, 0o700)
	wantMode(t, filepath.Dir(dir), 0o700)
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		wantMode(t, p, 0o600)
	}
	s.Close()

	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	s, err = Open(ctx, path, DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	wantMode(t, path, 0o600)
	if m, err := s.LoadMemory(ctx, "ns", "k"); err != nil || string(m.Value) != "1" {
		t.Errorf("after reopening: %+v, %v", m, err)
	}
}

func wantMode(t *testing.T, path string, want os.FileMode) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := fi.Mode().Perm(); got != want {
		t.Errorf("%s: mode %o, want %o", path, got, want)
	}
}

func TestOpenRefusesWhatIsNotItsDatabase(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()

	garbage := filepath.Join(dir, "garbage.db")
	if err := os.WriteFile(garbage, []byte(strings.Repeat("not a database\n", 100)), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(ctx, garbage, DefaultLimits()); err == nil || !strings.Contains(err.Error(), garbage) {
		t.Errorf("Open of a text file: %v, want an error naming it", err)
	}

	if _, err := Open(ctx, dir, DefaultLimits()); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("Open of a directory: %v", err)
	}

	// A database from a newer version of this program.
	newer := filepath.Join(dir, "newer.db")
	db, err := sql.Open("sqlite", newer)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`PRAGMA user_version = 99`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if _, err := Open(ctx, newer, DefaultLimits()); err == nil || !strings.Contains(err.Error(), "schema version 99 is newer") {
		t.Errorf("Open of a newer schema: %v", err)
	}
}

// TestSchemaVersioned: a new database gets the newest schema version, and
// opening it again changes nothing.
func TestSchemaVersioned(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), FileName)
	for range 2 {
		s, err := Open(ctx, path, DefaultLimits())
		if err != nil {
			t.Fatal(err)
		}
		var v int
		var mode string
		if err := s.db.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&v); err != nil || v != len(migrations()) {
			t.Errorf("user_version = %d, %v; want %d", v, err, len(migrations()))
		}
		if err := s.db.QueryRowContext(ctx, `PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
			t.Errorf("journal_mode = %q, %v", mode, err)
		}
		if _, err := s.SaveMemory(ctx, "ns", "k", raw(`1`), nil); err != nil {
			t.Fatal(err)
		}
		s.Close()
	}
}

func TestDefaultPath(t *testing.T) {
	t.Setenv("HOME", "/home/someone")
	t.Setenv("XDG_DATA_HOME", "/data")
	if p, err := DefaultPath(); err != nil || p != "/data/mcp-code-mode/state.db" {
		t.Errorf("DefaultPath with XDG_DATA_HOME = %q, %v", p, err)
	}
	for _, v := range []string{"", "relative/dir"} {
		t.Setenv("XDG_DATA_HOME", v)
		if p, err := DefaultPath(); err != nil || p != "/home/someone/.local/share/mcp-code-mode/state.db" {
			t.Errorf("DefaultPath with XDG_DATA_HOME=%q: %q, %v", v, p, err)
		}
	}
}

// TestCanceledWhileWaitingForTheLock: a write waiting for another
// process's write lock returns when its context is canceled.
func TestCanceledWhileWaitingForTheLock(t *testing.T) {
	ctx := t.Context()
	s := openStore(t, DefaultLimits())
	// Another connection pool is as good as another process: SQLite's
	// locks are per connection.
	other, err := sql.Open("sqlite", dsn(s.Path()))
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	holder, err := other.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	if _, err := holder.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}

	wctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		_, err := s.SaveMemory(wctx, "ns", "k", raw(`1`), nil)
		done <- err
	}()
	time.Sleep(50 * time.Millisecond) // not an assertion: lets it start waiting
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("SaveMemory canceled while waiting: %v, want context.Canceled", err)
	}
	if _, err := holder.ExecContext(ctx, "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	// The store is still usable, and the canceled write left nothing.
	if ok, err := s.MemoryExists(ctx, "ns", "k"); err != nil || ok {
		t.Errorf("MemoryExists after the canceled write = %v, %v", ok, err)
	}
	if _, err := s.SaveMemory(ctx, "ns", "k", raw(`1`), nil); err != nil {
		t.Errorf("SaveMemory after the lock is released: %v", err)
	}
	if _, err := s.SaveMemory(wctx, "ns", "k2", raw(`1`), nil); !errors.Is(err, context.Canceled) {
		t.Errorf("SaveMemory with a canceled context: %v", err)
	}
}

// snapshot is everything stored for a namespace, as text to compare.
func snapshot(t *testing.T, s *Store, ns string) string {
	t.Helper()
	ctx := t.Context()
	var b strings.Builder
	rows, err := s.db.QueryContext(ctx, `SELECT key, value, coalesce(metadata, ''), version, updated_at FROM memories WHERE namespace = ? ORDER BY key`, ns)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var key, value, meta string
		var version, updated int64
		if err := rows.Scan(&key, &value, &meta, &version, &updated); err != nil {
			t.Fatal(err)
		}
		b.WriteString(strings.Join([]string{key, value, meta, strconv.FormatInt(version, 10), strconv.FormatInt(updated, 10)}, "|") + "\n")
	}
	rows.Close()
	tools, err := s.db.QueryContext(ctx, `SELECT name, source, description, updated_at FROM tools WHERE namespace = ? ORDER BY name`, ns)
	if err != nil {
		t.Fatal(err)
	}
	for tools.Next() {
		var name, source, desc string
		var updated int64
		if err := tools.Scan(&name, &source, &desc, &updated); err != nil {
			t.Fatal(err)
		}
		b.WriteString(strings.Join([]string{name, source, desc, strconv.FormatInt(updated, 10)}, "|") + "\n")
	}
	tools.Close()
	u, err := s.Usage(ctx, ns)
	if err != nil {
		t.Fatal(err)
	}
	b.WriteString(strconv.FormatInt(u.Bytes, 10) + " " + strconv.Itoa(u.Memories) + " " + strconv.Itoa(u.Tools))
	return b.String()
}

// checkUsage checks the namespace's totals against what it holds, counted
// through the API.
func checkUsage(t *testing.T, s *Store, ns string) {
	t.Helper()
	ctx := t.Context()
	mems, err := s.ListMemories(ctx, ns)
	if err != nil {
		t.Fatal(err)
	}
	tools, err := s.ListTools(ctx, ns)
	if err != nil {
		t.Fatal(err)
	}
	var want Usage
	for _, m := range mems {
		want.Bytes += int64(len(m.Key) + m.Size + len(m.Metadata))
		want.Memories++
	}
	for _, tool := range tools {
		want.Bytes += int64(len(tool.Name) + tool.SourceBytes + len(tool.Description))
		want.Tools++
	}
	got, err := s.Usage(ctx, ns)
	if err != nil || got != want {
		t.Errorf("Usage(%q) = %+v, %v; counted %+v", ns, got, err, want)
	}
}

// TestOpenPathWithSpecialCharacters: the path reaches SQLite as written,
// none of its characters read as a URI parameter or escape.
func TestOpenPathWithSpecialCharacters(t *testing.T) {
	ctx := t.Context()
	dir := filepath.Join(t.TempDir(), "d?ir #1")
	path := filepath.Join(dir, "st%41te?_pragma=query_only(1)&x.db")
	s, err := Open(ctx, path, DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.SaveMemory(ctx, "ns", "k", raw(`1`), nil); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	base := filepath.Base(path)
	if strings.Join(names, ",") != strings.Join([]string{base, base + "-shm", base + "-wal"}, ",") {
		t.Errorf("files in %s: %q, want the database's name as given", dir, names)
	}
}

// TestCompareAndSwapAcrossGoroutines: two stores on one file in one
// process, 4 goroutines each, 5 increments per goroutine: none lost.
func TestCompareAndSwapAcrossGoroutines(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), FileName)
	stores := make([]*Store, 2)
	for i := range stores {
		s, err := Open(ctx, path, DefaultLimits())
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		stores[i] = s
	}
	errs := make(chan error, 8)
	for g := range 8 {
		go func() {
			for range 5 {
				if _, err := increment(ctx, stores[g%2], "ns", "counter"); err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	m, err := stores[0].LoadMemory(ctx, "ns", "counter")
	if err != nil || string(m.Value) != "40" || m.Version != 40 {
		t.Errorf("counter = %+v, %v; want 40 at version 40", m, err)
	}
}

// Values and metadata are kept with every non-ASCII character escaped, as
// Python's json.dumps writes them and as they travel to and from the
// sandbox: a value's size is the same whether a program or the CLI wrote
// it, and the limits count that size.
func TestValuesAreKeptAsASCIIJSON(t *testing.T) {
	ctx := t.Context()
	limits := DefaultLimits()
	limits.MaxValueBytes = 60
	s := openStore(t, limits)
	if _, err := s.SaveMemory(ctx, "ns", "k", raw(`{"é": "日本 🎉", "s": "\u00e9\n"}`), raw(`{"ü": 1}`)); err != nil {
		t.Fatal(err)
	}
	m, err := s.LoadMemory(ctx, "ns", "k")
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"\u00e9":"\u65e5\u672c \ud83c\udf89","s":"\u00e9\n"}`; string(m.Value) != want {
		t.Errorf("value kept as %s, want %s", m.Value, want)
	}
	if want := `{"\u00fc":1}`; string(m.Metadata) != want {
		t.Errorf("metadata kept as %s, want %s", m.Metadata, want)
	}
	var back map[string]string
	if err := json.Unmarshal(m.Value, &back); err != nil || back["é"] != "日本 🎉" {
		t.Errorf("the value does not decode to what was saved: %v %v", back, err)
	}
	// Ten é are 20 bytes of UTF-8 but 62 as they are kept: over 60.
	_, err = s.SaveMemory(ctx, "ns", "k2", raw(`"`+strings.Repeat("é", 10)+`"`), nil)
	var le *LimitError
	if !errors.As(err, &le) || le.Got != 62 {
		t.Errorf("a value of 10 é: %v; want max_value_bytes with 62 bytes", err)
	}
}
