package search

import (
	"math"
	"testing"
)

func TestFuse(t *testing.T) {
	words := []Hit{{Index: 7, Score: 9}, {Index: 3, Score: 5}, {Index: 1, Score: 2}}
	meaning := []Hit{{Index: 3, Score: 0.9}, {Index: 4, Score: 0.8}, {Index: 7, Score: 0.1}}
	got := Fuse(0, words, meaning)
	// 3: 1/62 + 1/61; 7: 1/61 + 1/63; 4: 1/62; 1: 1/63.
	want := []Hit{
		{Index: 3, Score: 1.0/62 + 1.0/61},
		{Index: 7, Score: 1.0/61 + 1.0/63},
		{Index: 4, Score: 1.0 / 62},
		{Index: 1, Score: 1.0 / 63},
	}
	if len(got) != len(want) {
		t.Fatalf("Fuse = %v, want %v", got, want)
	}
	for i := range want {
		if got[i].Index != want[i].Index || math.Abs(got[i].Score-want[i].Score) > 1e-12 {
			t.Errorf("hit %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	if top := Fuse(2, words, meaning); len(top) != 2 || top[0].Index != 3 || top[1].Index != 7 {
		t.Errorf("Fuse with limit 2 = %v", top)
	}
	// Equal scores: the tool ranked higher in the first ranking that
	// holds one of them comes first.
	if tie := Fuse(0, []Hit{{Index: 5}}, []Hit{{Index: 2}}); tie[0].Index != 5 || tie[1].Index != 2 {
		t.Errorf("tie = %v, want 5 (first ranking) then 2", tie)
	}
	// A ranking that names a tool twice counts it once.
	if dup := Fuse(0, []Hit{{Index: 1}, {Index: 1}}); len(dup) != 1 || math.Abs(dup[0].Score-1.0/61) > 1e-12 {
		t.Errorf("duplicate = %v", dup)
	}
	if none := Fuse(5); len(none) != 0 {
		t.Errorf("Fuse of nothing = %v", none)
	}
}

func TestNearest(t *testing.T) {
	vecs := [][]float32{
		{1, 0, 0},
		{0.7, 0.7, 0},
		{0, 1, 0},
		{-1, 0, 0}, // points away
		{0, 0, 0},  // zero
		{1, 0},     // another length
		{2, 0, 0},  // the same direction as 0, longer
	}
	got := Nearest([]float32{1, 0.1, 0}, vecs, 0)
	order := []int{0, 6, 1, 2}
	if len(got) != len(order) {
		t.Fatalf("Nearest = %v, want indexes %v", got, order)
	}
	for i, idx := range order {
		if got[i].Index != idx {
			t.Errorf("hit %d = %+v, want index %d (all: %v)", i, got[i], idx, got)
		}
	}
	if got[0].Score != got[1].Score || got[0].Score <= 0.99 {
		t.Errorf("cosine of parallel vectors: %v and %v", got[0].Score, got[1].Score)
	}
	if top := Nearest([]float32{0, 1, 0}, vecs, 1); len(top) != 1 || top[0].Index != 2 {
		t.Errorf("Nearest with limit 1 = %v", top)
	}
	if zero := Nearest([]float32{0, 0, 0}, vecs, 0); zero != nil {
		t.Errorf("Nearest to a zero query = %v", zero)
	}
}
