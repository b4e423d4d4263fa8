package flights

import (
	"slices"
	"testing"
)

// Rows built row by row hold what was pushed, empty rows included, and a
// row's capacity ends where it does: appending to one leaves the next as it
// was.
func TestRowsPushAndEnd(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   [][]int32
	}{
		{"none", nil},
		{"one empty", [][]int32{{}}},
		{"short and empty", [][]int32{{1, 2}, {}, {3}, {}, {}}},
		{"empty first and last", [][]int32{{}, {7, 8, 9}, {}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRows[int32](len(tc.in), 2)
			for _, row := range tc.in {
				for _, v := range row {
					r.push(v)
				}
				r.end()
			}
			if r.len() != len(tc.in) {
				t.Fatalf("len %d, want %d", r.len(), len(tc.in))
			}
			for i, want := range tc.in {
				if got := r.row(i); !slices.Equal(got, want) {
					t.Errorf("row %d %v, want %v", i, got, want)
				}
			}
			for i := range tc.in {
				_ = append(r.row(i), -1)
			}
			for i, want := range tc.in {
				if got := r.row(i); !slices.Equal(got, want) {
					t.Errorf("after appending to every row: row %d %v, want %v", i, got, want)
				}
			}
		})
	}
}

// groupRows files each item under its key, in ascending order within a
// row, and leaves the keys no item has empty.
func TestGroupRows(t *testing.T) {
	for _, tc := range []struct {
		name string
		n    int
		keys []int // keys[i] is item i's
		want [][]int32
	}{
		{"no items", 3, nil, [][]int32{{}, {}, {}}},
		{"no rows", 0, nil, [][]int32{}},
		{"one row", 1, []int{0, 0, 0}, [][]int32{{0, 1, 2}}},
		{"interleaved", 4, []int{2, 0, 2, 3, 0, 2}, [][]int32{{1, 4}, {}, {0, 2, 5}, {3}}},
		{"descending keys", 3, []int{2, 1, 0}, [][]int32{{2}, {1}, {0}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := groupRows(tc.n, len(tc.keys), func(i int) int { return tc.keys[i] })
			if r.len() != tc.n {
				t.Fatalf("len %d, want %d", r.len(), tc.n)
			}
			for k, want := range tc.want {
				if got := r.row(k); !slices.Equal(got, want) {
					t.Errorf("row %d %v, want %v", k, got, want)
				}
			}
		})
	}
}
