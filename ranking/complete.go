package ranking

import (
	"fmt"
	"slices"

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
// option's facts (Describe), and a pick naming no candidate, or one already
// picked, is skipped. The candidates slice is not changed.
func (w Weights) FromAnswer(tier Tier, candidates []Option, picks []answer.Pick, n int) Ranking {
	ordered := slices.Clone(candidates)
	w.Order(ordered)
	return fromAnswer(tier, ordered, picks, n)
}

// fromAnswer is FromAnswer over options already in the deterministic
// order.
func fromAnswer(tier Tier, options []Option, picks []answer.Pick, n int) Ranking {
	count := len(options)
	r := Ranking{Method: tier, Ranked: true, Considered: count}
	if n <= 0 {
		return r
	}
	byID := make(map[string]int, count)
	for i, o := range options {
		if _, dup := byID[o.ID()]; !dup {
			byID[o.ID()] = i
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
		chosen := described(options[i])
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
		added := described(options[i])
		added.Reason = fmt.Sprintf("added from the deterministic order (%s): %s", byModel, added.Reason)
		r.Picks = append(r.Picks, added)
	}
	return r
}
