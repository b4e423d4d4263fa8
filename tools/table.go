package tools

import (
	"strings"
	"unicode/utf8"
)

// tableColumns is how many cells a row of findBestFlight's table has: #,
// flight, date, depart, arrive, duration, stops, price, id.
const tableColumns = 9

// writeTable writes findBestFlight's table of picks, each row ending in a
// newline, laid out as text/tabwriter lays out the same cells joined by
// tabs with padding 2 and no flags: every cell but a row's last is padded
// with spaces to its column's widest cell (in runes) plus two; the last is
// written as it is. Every row has the same cells, so each column is one
// block, and no cell holds a tab, a newline or tabwriter's escape byte.
// tabwriter, general enough for any text, was most of the text's cost and
// half its allocations; this is one pass to measure and one to write.
func writeTable(b *strings.Builder, rows [][tableColumns]string) {
	const padding = 2
	var widths [tableColumns - 1]int
	for _, row := range rows {
		for i, c := range row[:tableColumns-1] {
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	for _, row := range rows {
		for i, c := range row[:tableColumns-1] {
			b.WriteString(c)
			for pad := widths[i] + padding - utf8.RuneCountInString(c); pad > 0; pad -= len(spaces) {
				b.WriteString(spaces[:min(pad, len(spaces))])
			}
		}
		b.WriteString(row[tableColumns-1])
		b.WriteByte('\n')
	}
}

// spaces pads a cell in one write, or a few for a very wide column.
const spaces = "                                "
