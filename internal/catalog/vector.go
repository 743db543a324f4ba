package catalog

import (
	"encoding/binary"
	"errors"
	"math"
	"path/filepath"

	"github.com/mcp-code-mode/mcp-code-mode/internal/safefile"
)

// The catalog also keeps the embedding vectors of tools, for the optional
// embedding ranker of search: one file per vector under embeddings/, named
// by a key that hashes the model and the text embedded, holding the
// vector's components as little-endian float32. Like the tool lists, they
// hold no secret.

// maxVectorDims bounds a stored vector (the embedding client accepts no
// longer ones).
const maxVectorDims = 16384

// vectorPath is where the vector of key is kept, or "" when key is not a
// hex SHA-256 (so that no key names a path elsewhere).
func (c Catalog) vectorPath(key string) string {
	if len(key) != 64 {
		return ""
	}
	for _, r := range key {
		if (r < '0' || r > '9') && (r < 'a' || r > 'f') {
			return ""
		}
	}
	return filepath.Join(c.Dir, "embeddings", key+".f32")
}

// LoadVector returns the vector kept under key, or ok=false when there is
// none or it is unreadable (not a whole number of finite float32s, or
// longer than any accepted vector): a cache is never an error.
func (c Catalog) LoadVector(key string) ([]float32, bool) {
	p := c.vectorPath(key)
	if c.Dir == "" || p == "" {
		return nil, false
	}
	b, err := safefile.Read(p, 4*maxVectorDims)
	if err != nil || len(b) == 0 || len(b)%4 != 0 {
		return nil, false
	}
	v := make([]float32, len(b)/4)
	for i := range v {
		x := math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return nil, false
		}
		v[i] = x
	}
	return v, true
}

// StoreVector keeps v under key, atomically.
func (c Catalog) StoreVector(key string, v []float32) error {
	if c.Dir == "" {
		return nil
	}
	p := c.vectorPath(key)
	if p == "" {
		return errors.New("catalog: a vector key must be a hex SHA-256")
	}
	if len(v) == 0 || len(v) > maxVectorDims {
		return errors.New("catalog: a vector must have 1 to 16384 components")
	}
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return Catalog{Dir: filepath.Dir(p)}.write(p, b)
}
