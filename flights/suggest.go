package flights

import (
	"cmp"
	"slices"
	"strings"
)

// Suggest returns up to n known airport codes closest to what the caller
// typed, so an error can say "did you mean". A city or airport name ("paris",
// "heathrow", even "londn") matches by substring or by a small edit distance
// to the city; a code-like input is compared with every code by edit
// distance, where a swapped pair of letters counts as one edit. Only the
// closest matches are returned: a list of far-off codes would mislead.
func (c *Catalog) Suggest(typed string, n int) []string {
	q := strings.ToUpper(strings.TrimSpace(typed))
	// Nothing longer than a long city name is worth comparing, and the edit
	// distance is quadratic: a megabyte of "origin" must not cost seconds.
	if q == "" || n <= 0 || len(q) > maxSuggestInput {
		return nil
	}
	if len(q) > 3 {
		var byName []string
		for _, code := range c.codes {
			a := c.airports[code]
			if strings.Contains(strings.ToUpper(a.City), q) || strings.Contains(strings.ToUpper(a.Name), q) {
				byName = append(byName, code)
			}
		}
		if len(byName) == 0 {
			byName = closest(c.codes, func(code string) int { return editDistance(q, strings.ToUpper(c.airports[code].City)) }, len(q)/3)
		}
		return byName[:min(n, len(byName))]
	}
	best := closest(c.codes, func(code string) int { return editDistance(q, code) }, 2)
	return best[:min(n, len(best))]
}

const maxSuggestInput = 40

// closest returns the codes at the smallest distance, if it is at most limit,
// in catalog order.
func closest(codes []string, dist func(string) int, limit int) []string {
	type scored struct {
		code string
		d    int
	}
	all := make([]scored, len(codes))
	for i, code := range codes {
		all[i] = scored{code, dist(code)}
	}
	slices.SortStableFunc(all, func(a, b scored) int { return cmp.Compare(a.d, b.d) })
	var out []string
	for _, s := range all {
		if s.d > limit || s.d > all[0].d {
			break
		}
		out = append(out, s.code)
	}
	return out
}

// editDistance is the optimal string alignment distance: insertions,
// deletions, substitutions and transpositions of adjacent letters.
func editDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
