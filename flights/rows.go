package flights

// rows are rows of T of any length, held one after another in one array:
// row i is all[start[i]:start[i+1]]. The network's pair index and its
// connecting airports, and a season's departures, are rows: a slice per
// row would cost a 24-byte header, and an allocation, for each of tens of
// thousands of rows, most of them short or empty.
//
// Rows are built in order, each with push and then end, or all at once by
// groupRows; once built they are only read (row), though what a row holds
// may be written through it.
type rows[T any] struct {
	all   []T
	start []int32 // one more than there are rows; start[0] is 0
}

// newRows are no rows yet, with room for n rows holding items in all.
func newRows[T any](n, items int) rows[T] {
	return rows[T]{all: make([]T, 0, items), start: append(make([]int32, 0, n+1), 0)}
}

// push appends items to the row being built.
func (r *rows[T]) push(items ...T) { r.all = append(r.all, items...) }

// end ends the row being built: what was pushed since the last end (or
// since newRows) is the next row, which may be empty.
func (r *rows[T]) end() { r.start = append(r.start, int32(len(r.all))) }

// row is row i; its capacity ends at its own last item, so appending to it
// cannot overwrite the next row.
func (r *rows[T]) row(i int) []T {
	from, to := r.start[i], r.start[i+1]
	return r.all[from:to:to]
}

// len is how many rows have been ended.
func (r *rows[T]) len() int { return len(r.start) - 1 }

// groupRows files the items 0 to count-1 under their keys, each key(i) in
// [0, n): row k holds the items whose key is k, in ascending order.
func groupRows(n, count int, key func(i int) int) rows[int32] {
	r := rows[int32]{all: make([]int32, count), start: make([]int32, n+1)}
	for i := range count {
		r.start[key(i)+1]++
	}
	for k := 1; k <= n; k++ {
		r.start[k] += r.start[k-1]
	}
	filled := make([]int32, n)
	for i := range count { // in order: each row's items ascend
		k := key(i)
		r.all[r.start[k]+filled[k]] = int32(i)
		filled[k]++
	}
	return r
}
