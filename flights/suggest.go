package flights

import (
	"cmp"
	"slices"
	"strings"
)

// Suggest returns up to n known airport codes closest to what the caller
// typed, so an error can say "did you mean". A city or airport name ("paris",
// "heathrow") matches by substring; anything else is compared with every code
// by edit distance (a swapped pair of letters counts as one edit).
func (c *Catalog) Suggest(typed string, n int) []string {
	q := strings.ToUpper(strings.TrimSpace(typed))
	if q == "" || n <= 0 {
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
		if len(byName) > 0 {
			return byName[:min(n, len(byName))]
		}
	}
	type scored struct {
		code string
		dist int
	}
	all := make([]scored, 0, len(c.codes))
	for _, code := range c.codes {
		all = append(all, scored{code, editDistance(q, code)})
	}
	slices.SortStableFunc(all, func(a, b scored) int { return cmp.Compare(a.dist, b.dist) })
	out := make([]string, 0, n)
	for _, s := range all[:min(n, len(all))] {
		if s.dist > 2 { // nothing close: a list of random codes would mislead
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
