package catalog

import (
	"crypto/sha256"
	"encoding/hex"
	"math"
	"os"
	"path/filepath"
	"testing"
)

func key(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

func TestVectorRoundTrip(t *testing.T) {
	c := Catalog{Dir: t.TempDir()}
	v := []float32{0.25, -1.5, 3e-7, 42}
	if err := c.StoreVector(key("a"), v); err != nil {
		t.Fatal(err)
	}
	got, ok := c.LoadVector(key("a"))
	if !ok || len(got) != len(v) {
		t.Fatalf("LoadVector = %v, %v", got, ok)
	}
	for i := range v {
		if got[i] != v[i] {
			t.Errorf("component %d = %v, want %v", i, got[i], v[i])
		}
	}
	if _, ok := c.LoadVector(key("b")); ok {
		t.Error("a vector never stored was found")
	}
	if _, ok := (Catalog{}).LoadVector(key("a")); ok {
		t.Error("the zero Catalog found a vector")
	}
}

// What another process, or anyone, left in the catalog is used only when it
// is a vector: a file of the wrong size, with a NaN or an infinity, too long
// to be one, or not a regular file is not; a key that is not a hash names
// no file.
func TestVectorsFromABrokenCatalogAreNotUsed(t *testing.T) {
	dir := t.TempDir()
	c := Catalog{Dir: dir}
	if err := os.MkdirAll(filepath.Join(dir, "embeddings"), 0o700); err != nil {
		t.Fatal(err)
	}
	f32 := func(xs ...float32) []byte {
		b := make([]byte, 0, 4*len(xs))
		for _, x := range xs {
			u := math.Float32bits(x)
			b = append(b, byte(u), byte(u>>8), byte(u>>16), byte(u>>24))
		}
		return b
	}
	broken := map[string][]byte{
		"empty":    {},
		"odd size": {1, 2, 3, 4, 5},
		"nan":      f32(1, float32(math.NaN())),
		"infinity": f32(float32(math.Inf(1)), 1),
		"too long": make([]byte, 4*(maxVectorDims+1)),
	}
	for name, b := range broken {
		if err := os.WriteFile(filepath.Join(dir, "embeddings", key(name)+".f32"), b, 0o600); err != nil {
			t.Fatal(err)
		}
		if v, ok := c.LoadVector(key(name)); ok {
			t.Errorf("%s: LoadVector = %v, want nothing", name, v)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "embeddings", key("dir")+".f32"), 0o700); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.LoadVector(key("dir")); ok {
		t.Error("a directory was read as a vector")
	}
	// A key that is not a hex SHA-256 could name a path elsewhere.
	for _, bad := range []string{"../../etc/passwd", "", "ABCDEF", key("x")[:63] + "/"} {
		if _, ok := c.LoadVector(bad); ok {
			t.Errorf("LoadVector(%q) found something", bad)
		}
		if err := c.StoreVector(bad, []float32{1}); err == nil {
			t.Errorf("StoreVector(%q) accepted the key", bad)
		}
	}
	if err := c.StoreVector(key("big"), make([]float32, maxVectorDims+1)); err == nil {
		t.Error("StoreVector accepted a vector longer than any accepted")
	}
}
