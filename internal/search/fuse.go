package search

import "sort"

// FuseK is the constant of reciprocal rank fusion: a tool ranked r-th (from
// 1) in a ranking scores 1/(FuseK+r) for it. 60 is the value of the method's
// authors (Cormack, Clarke and Büttcher, SIGIR 2009); it keeps one ranking's
// top hit from outweighing agreement among several.
const FuseK = 60

// Fuse merges rankings by reciprocal rank fusion: each tool scores the sum,
// over the rankings that hold it, of 1/(FuseK+r), r its rank there (from
// 1). Scores are not compared across rankings, only ranks, so rankings of
// different kinds (BM25F, cosine similarity, several phrasings of one
// query) fuse without calibration. It returns at most limit hits (limit <= 0:
// all), best first, with the fused score; ties go to the tool ranked higher
// in the first ranking that holds one of them, then by Index.
func Fuse(limit int, rankings ...[]Hit) []Hit {
	type fused struct {
		score      float64
		first, pos int // the first ranking that holds the tool, and its position there
	}
	by := map[int]*fused{}
	var order []int
	for ri, r := range rankings {
		seen := make(map[int]bool, len(r))
		for pos, h := range r {
			if seen[h.Index] {
				continue // a ranking counts a tool once
			}
			seen[h.Index] = true
			f := by[h.Index]
			if f == nil {
				f = &fused{first: ri, pos: pos}
				by[h.Index] = f
				order = append(order, h.Index)
			}
			f.score += 1 / float64(FuseK+pos+1)
		}
	}
	sort.Slice(order, func(a, b int) bool {
		x, y := by[order[a]], by[order[b]]
		if x.score != y.score {
			return x.score > y.score
		}
		if x.first != y.first {
			return x.first < y.first
		}
		if x.pos != y.pos {
			return x.pos < y.pos
		}
		return order[a] < order[b]
	})
	if limit > 0 && len(order) > limit {
		order = order[:limit]
	}
	out := make([]Hit, len(order))
	for i, idx := range order {
		out[i] = Hit{Index: idx, Score: by[idx].score}
	}
	return out
}
