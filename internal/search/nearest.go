package search

import (
	"math"
	"sort"
)

// Nearest ranks vectors by cosine similarity to query: at most limit hits
// (limit <= 0: all), most similar first, ties by index. Hit.Index is the
// position in vectors. Vectors that point away from query or across it
// (similarity 0 or less) are left out, as are those whose length differs
// from query's; every vector is when query is zero.
func Nearest(query []float32, vectors [][]float32, limit int) []Hit {
	qn := norm(query)
	if qn == 0 {
		return nil
	}
	var out []Hit
	for i, v := range vectors {
		if len(v) != len(query) {
			continue
		}
		vn := norm(v)
		if vn == 0 {
			continue
		}
		var dot float64
		for k := range v {
			dot += float64(v[k]) * float64(query[k])
		}
		if dot > 0 {
			out = append(out, Hit{Index: i, Score: dot / (qn * vn)})
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Score > out[b].Score })
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out
}

func norm(v []float32) float64 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	return math.Sqrt(s)
}
