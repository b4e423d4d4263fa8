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
// choose among them. Of many candidates (more than maxSmallSet), a list of
// more than maxEchoFree and more than half of them is an echo in any
// order: a model that names most of the flights has not chosen, whether
// it copied the prompt's order or sorted the data by some column of its
// own, and the first ten of such a list are no more its picks than the
// last. Of a few, a ranking of more than three may well name half of them,
// so a list is an echo only when it names nearly all of them (three
// quarters or more), or more than maxRankedInOrder of them and more than
// half in the prompt's own order or its reverse; any other is read as a ranking, best
// first, of which callers use the first picks they want.
func (p *parser) echoes(entries []entry) bool {
	seen := make(map[int]bool)
	up, down, last := true, true, -1
	for _, e := range entries {
		if !e.hasID {
			continue
		}
		if i, ok := p.lookup(e.id); ok && !seen[i] {
			seen[i] = true
			up = up && (last < 0 || i > last)
			down = down && (last < 0 || i < last)
			last = i
		}
	}
	inOrder := up || down
	n, all := len(seen), len(p.ids)
	echo := n > maxEchoFree && 2*n > all
	if all <= maxSmallSet {
		echo = n > maxEchoFree && (4*n >= 3*all || inOrder && n > maxRankedInOrder && 2*n > all)
	}
	if echo {
		p.echoed = max(p.echoed, n)
	}
	return echo
}

// echoRefusal is the error for an answer whose only readings were echoes:
// a list of most of the candidates, or the data block repeated.
func (p *parser) echoRefusal() *Error {
	if p.echoed > 0 {
		return answerErr("answer lists %d of the %d flights instead of choosing up to three", p.echoed, len(p.ids))
	}
	return answerErr("answer repeats the %s table from the prompt instead of choosing flights", DataOpen)
}
