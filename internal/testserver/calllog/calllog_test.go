package calllog

import (
	"path/filepath"
	"slices"
	"sync"
	"testing"
)

func TestWriteRead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "calls.log")
	if recs, err := Read(path); err != nil || recs != nil {
		t.Fatalf("a log not written yet: %v, %v; want none and no error", recs, err)
	}
	w, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() {
			if err := w.Write(Record{Tool: "add", Args: []byte(`{"a":1}`), StartUnixNano: 1, EndUnixNano: 2}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	// Arguments that are not JSON are kept, as a string.
	if err := w.Write(Record{Tool: "echo", Args: []byte(`{not json`), Unknown: true}); err != nil {
		t.Fatal(err)
	}
	recs, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 51 || string(recs[0].Args) != `{"a":1}` || recs[0].EndUnixNano != 2 {
		t.Fatalf("read %d records, first %+v", len(recs), recs[0])
	}
	last := recs[50]
	if last.Tool != "echo" || !last.Unknown || string(last.Args) != `"{not json"` {
		t.Fatalf("last record %+v", last)
	}
	if tools := Tools(recs[49:]); !slices.Equal(tools, []string{"add", "echo"}) {
		t.Fatalf("Tools = %v", tools)
	}
}
