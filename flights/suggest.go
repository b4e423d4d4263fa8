package flights

import "errors"

// Suggest returns up to n known airport codes for what the caller typed, so
// an error can say "did you mean": the airports of the place it names, or of
// the places ResolvePlace suggests for it (see suggestPlaces). Only close
// matches are returned: a list of far-off codes would mislead.
func (c *Catalog) Suggest(typed string, n int) []string {
	if n <= 0 {
		return nil
	}
	var places []Place
	p, err := c.ResolvePlace(typed)
	var pe *PlaceError
	switch {
	case err == nil:
		places = []Place{p}
	case errors.As(err, &pe):
		places = pe.Suggestions
	}
	var out []string
	for _, p := range places {
		for _, code := range p.Airports {
			if len(out) < n {
				out = append(out, code)
			}
		}
	}
	return out
}

// maxSuggestInput is the longest query worth comparing: longer than any
// place name, and the edit distance is quadratic, so a megabyte of "origin"
// must not cost seconds.
const maxSuggestInput = 40

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
