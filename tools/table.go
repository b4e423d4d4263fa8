package tools

import (
	"strings"
	"unicode/utf8"
)

// tableColumns is how many cells a row of findBestFlight's table has: #,
// flight, date, depart, arrive, duration, stops, price, id.
const tableColumns = 9

// table is findBestFlight's table of picks, laid out as text/tabwriter lays
// out the same cells joined by tabs with padding 2 and no flags: every cell
// but a row's last is padded with spaces to its column's widest cell (in
// runes) plus two; the last is written as it is. Every row has the same
// cells, so each column is one block, and no cell holds a tab, a newline
// or tabwriter's escape byte. tabwriter, general enough for any text, was
// most of the text's cost and half its allocations; this is one pass to
// measure and one to write.
type table struct {
	rows   [][tableColumns]string
	widths [tableColumns - 1]int
}

// add appends a row.
func (t *table) add(cells [tableColumns]string) {
	for i, c := range cells[:tableColumns-1] {
		t.widths[i] = max(t.widths[i], utf8.RuneCountInString(c))
	}
	t.rows = append(t.rows, cells)
}

// writeTo writes the rows, each ending in a newline.
func (t *table) writeTo(b *strings.Builder) {
	const padding = 2
	for _, row := range t.rows {
		for i, c := range row[:tableColumns-1] {
			b.WriteString(c)
			for range t.widths[i] + padding - utf8.RuneCountInString(c) {
				b.WriteByte(' ')
			}
		}
		b.WriteString(row[tableColumns-1])
		b.WriteByte('\n')
	}
}
