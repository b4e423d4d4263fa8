package ranking

import (
	"fmt"
	"slices"

	"github.com/flightserver/flightserver/flights"
	"github.com/flightserver/flightserver/ranking/answer"
)

// FromAnswer turns validated picks into a Ranking of n flights for tier: the
// model's picks first, in its order, with its reasons; if it picked fewer
// than n, the rest are completed from the deterministic order (w.Order over
// candidates, skipping picked ones) and their reason says so, e.g. "added
// from the deterministic order (the model picked only 1): $412, nonstop,
// 7h05m". Ranked=true, Method=tier, Considered=len(candidates). It does not
// set Model.
//
// Picks beyond the first n are dropped. Picks not from answer.Parse are
// handled safely: reasons are cleaned again, an empty reason becomes the
// flight's facts (Describe), and a pick naming no candidate, or one already
// picked, is skipped. The candidates slice is not changed.
func (w Weights) FromAnswer(tier Tier, candidates []flights.Flight, picks []answer.Pick, n int) Ranking {
	ordered := slices.Clone(candidates)
	w.Order(ordered)
	return fromAnswer(tier, len(ordered), func(i int) string { return ordered[i].ID }, func(i int) Pick {
		return Pick{Flight: ordered[i], Reason: Describe(ordered[i])}
	}, picks, n)
}

// fromAnswer is FromAnswer over any options, the i-th in the deterministic
// order: id(i) is its id, and pick(i) its pick with the facts as the
// reason (written only for the options a ranking shows).
func fromAnswer(tier Tier, count int, id func(i int) string, pick func(i int) Pick, picks []answer.Pick, n int) Ranking {
	r := Ranking{Method: tier, Ranked: true, Considered: count}
	if n <= 0 {
		return r
	}
	byID := make(map[string]int, count)
	for i := range count {
		if _, dup := byID[id(i)]; !dup {
			byID[id(i)] = i
		}
	}
	picked := make(map[int]bool, n)
	for _, p := range picks {
		if len(r.Picks) == n {
			break
		}
		i, ok := byID[p.ID]
		if !ok || picked[i] {
			continue
		}
		picked[i] = true
		chosen := pick(i)
		if reason := answer.CleanReason(p.Reason); reason != "" {
			chosen.Reason = reason
		}
		r.Picks = append(r.Picks, chosen)
	}
	if len(r.Picks) == n || len(r.Picks) == count {
		return r
	}
	byModel := "the model picked none"
	if k := len(r.Picks); k > 0 {
		byModel = fmt.Sprintf("the model picked only %d", k)
	}
	for i := 0; i < count && len(r.Picks) < n; i++ {
		if picked[i] {
			continue
		}
		picked[i] = true
		added := pick(i)
		added.Reason = fmt.Sprintf("added from the deterministic order (%s): %s", byModel, added.Reason)
		r.Picks = append(r.Picks, added)
	}
	return r
}
