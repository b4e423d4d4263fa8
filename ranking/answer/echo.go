package answer

import "strings"

// An echo is an answer that gives the prompt's data back instead of
// choosing from it: a list of most of the candidates (see echoes), or the
// prompt's data block repeated. Either is set aside; an answer that holds
// nothing else is refused with echoRefusal.

// dataTags are the prompt's data block (DataOpen…DataClose), cut out of
// the answer before it is read; the parser remembers that it held one.
var dataTags = []string{strings.Trim(DataOpen, "<>")}

// echoes reports whether entries list the candidates back rather than
// choose among them: more than maxEchoFree of them and more than half, in
// any order. A model that names most of the flights has not chosen, whether
// it copied the prompt's order or sorted the data by some column of its
// own; the first ten of such a list are no more its picks than the last.
func (p *parser) echoes(entries []entry) bool {
	seen := make(map[int]bool)
	for _, e := range entries {
		if !e.hasID {
			continue
		}
		if i, ok := p.lookup(e.id); ok {
			seen[i] = true
		}
	}
	if n := len(seen); n > maxEchoFree && 2*n > len(p.ids) {
		p.echoed = max(p.echoed, n)
		return true
	}
	return false
}

// echoRefusal is the error for an answer whose only readings were echoes:
// a list of most of the candidates, or the data block repeated.
func (p *parser) echoRefusal() *Error {
	if p.echoed > 0 {
		return answerErr("answer lists %d of the %d flights instead of choosing up to three", p.echoed, len(p.ids))
	}
	return answerErr("answer repeats the %s table from the prompt instead of choosing flights", DataOpen)
}
