package answer

import (
	"slices"
	"strings"
)

// row reads a line of a markdown table. Its first row, if it names no
// flight, is the header; rule rows (|---|:--:|) are skipped.
func (lr *lineReader) row(t string) {
	cells := strings.Split(strings.Trim(t, "|"), "|")
	for i := range cells {
		cells[i] = strings.TrimSpace(cells[i])
	}
	if isRule(cells) {
		return
	}
	if !lr.inTable {
		lr.inTable, lr.table, lr.rows, lr.idCol, lr.reasonCol = true, -1, 0, -1, -1
	}
	lr.rows++
	col, id := -1, ""
	if c := lr.idCol; c >= 0 && c < len(cells) {
		if x, _, _, ok := lr.head(cells[c], maxHeadWords); ok {
			col, id = c, x
		}
	}
	for c := 0; col < 0 && c < len(cells); c++ {
		if x, _, _, ok := lr.head(cells[c], maxHeadWords); ok {
			col, id = c, x
		}
	}
	if col < 0 {
		if lr.rows == 1 {
			lr.idCol, lr.reasonCol = headerColumns(cells)
		}
		return
	}
	if lr.table < 0 {
		lr.ranked = append(lr.ranked, reading{kind: listRanked})
		lr.table = len(lr.ranked) - 1
	}
	reason := ""
	if r := lr.reasonCol; r >= 0 && r < len(cells) && r != col {
		reason = reasonText(cells[r])
	}
	lr.add(lr.table, entry{id: id, hasID: true, reason: reason})
}

// headerColumns finds a table's id and reason columns by their headings, or
// -1.
func headerColumns(cells []string) (idCol, reasonCol int) {
	idCol, reasonCol = -1, -1
	for c, cell := range cells {
		k := normKey(cell)
		if idCol < 0 && (slices.Contains(idKeys, k) || k == "option") {
			idCol = c
		}
		if reasonCol < 0 && slices.ContainsFunc(reasonHeadings, func(h string) bool { return strings.Contains(k, h) }) {
			reasonCol = c
		}
	}
	return idCol, reasonCol
}

var reasonHeadings = []string{"reason", "why", "rationale", "explanation", "justification", "note", "comment", "summary", "highlight", "verdict", "assessment"}

// isTableRow reports whether a line (trimmed) is a row of a markdown table:
// it starts with '|' or has two of them.
func isTableRow(t string) bool { return strings.HasPrefix(t, "|") || strings.Count(t, "|") >= 2 }

// isRule reports whether a table row is a rule: ---, :--, --: cells only.
func isRule(cells []string) bool {
	for _, c := range cells {
		if !strings.Contains(c, "-") || strings.Trim(c, "-:") != "" {
			return false
		}
	}
	return true
}
