package ledger

import (
	"context"
	"math"
	"strings"
)

// Revision pairs a line of a corrected bill with the line of the earlier
// bill it replaces: the entry keeps its id and now holds the new figures.
type Revision struct {
	Old Entry `json:"old"`
	New Entry `json:"new"`
}

// revisions reads a bill without line ids as a possible correction of
// bills already imported (#24 item 5, #28 item 8): a file that repeats
// at least one line of an earlier file S is a revision of S, and S's lines
// it no longer holds are replaced by its new lines rather than kept beside
// them. A new line replaces a missing line with the same platform, kind
// (GPU, non-GPU category, credit), card and month, and the same day or an
// amount within ConfirmTolerance — the nearest amount, then the same day,
// wins. It returns, per batch index, the entry replaced; the missing lines
// no new line replaced (still booked, listed for a person); and the new
// lines that look like a line of another bill (same platform, card, day
// and amount within tolerance: suspected duplicates, booked and flagged).
func (l *Ledger) revisions(ctx context.Context, team string, batch []Entry) (replace map[int]Entry, missing []Entry, suspected []Match, err error) {
	if len(batch) == 0 {
		return nil, nil, nil, nil
	}
	k := keysFor(team)
	fields := make([]string, len(batch))
	for i, e := range batch {
		fields[i] = e.ImportKey
	}
	vals, err := l.rdb.HMGet(ctx, k.imports, fields...).Result()
	if err != nil {
		return nil, nil, nil, err
	}
	known := map[string]bool{}
	fresh := []int{}
	for i, v := range vals {
		if id, ok := v.(string); ok && id != voidMark {
			known[id] = true
		} else {
			fresh = append(fresh, i)
		}
	}
	if len(fresh) == 0 {
		return nil, nil, nil, nil
	}
	from, to := batch[0].At, batch[0].At
	for _, e := range batch {
		if e.At.Before(from) {
			from = e.At
		}
		if e.At.After(to) {
			to = e.At
		}
	}
	es, err := l.Between(ctx, team, MonthOf(from, l.loc).Start(l.loc), MonthOf(to, l.loc).End(l.loc))
	if err != nil {
		return nil, nil, nil, err
	}
	revised := map[string]bool{} // sources this file revises
	for _, e := range es {
		if known[e.ID] && strings.HasPrefix(e.Source, "csv:") && e.Source != batch[0].Source {
			revised[e.Source] = true
		}
	}
	var gone, others []Entry
	for _, e := range es {
		switch {
		case !strings.HasPrefix(e.Source, "csv:") || known[e.ID] || e.Source == batch[0].Source:
		case revised[e.Source]:
			gone = append(gone, e)
		default:
			others = append(others, e)
		}
	}
	replace = map[int]Entry{}
	used := map[string]bool{}
	for _, i := range fresh {
		n := batch[i]
		best, bestScore := -1, math.Inf(1)
		for j, o := range gone {
			if used[o.ID] || !sameResource(o, n) || MonthOf(o.At, l.loc) != MonthOf(n.At, l.loc) {
				continue
			}
			sameDay := l.day(o.At).Equal(l.day(n.At))
			diff := amountGap(o, n)
			if !sameDay && diff > ConfirmTolerance {
				continue
			}
			score := diff
			if !sameDay {
				score += 1 // a line of the same day is the likelier one
			}
			if score < bestScore {
				best, bestScore = j, score
			}
		}
		if best >= 0 {
			used[gone[best].ID] = true
			replace[i] = gone[best]
			continue
		}
		for _, o := range others {
			if sameResource(o, n) && l.day(o.At).Equal(l.day(n.At)) && amountGap(o, n) <= ConfirmTolerance {
				suspected = append(suspected, Match{Chat: o, Bill: n})
				break
			}
		}
	}
	for _, o := range gone {
		if !used[o.ID] {
			missing = append(missing, o)
		}
	}
	return replace, missing, suspected, nil
}

// sameResource reports whether two bill lines are for the same thing:
// platform, kind, and the card (GPU lines) or category (non-GPU lines).
func sameResource(a, b Entry) bool {
	if a.Platform != b.Platform || a.Kind != b.Kind && !(a.IsGPU() && b.IsGPU()) {
		return false
	}
	switch {
	case a.IsNonGPU():
		return a.Category == b.Category
	case a.IsRefund():
		return true
	}
	return a.GPU == b.GPU
}

// amountGap is how far apart two amounts are, relative to the larger; 1
// when either is missing or the currencies differ.
func amountGap(a, b Entry) float64 {
	if !a.Priced() || !b.Priced() || a.Amount.Currency != b.Amount.Currency {
		return 1
	}
	x, y := math.Abs(float64(a.Amount.Minor)), math.Abs(float64(b.Amount.Minor))
	if m := math.Max(x, y); m > 0 {
		return math.Abs(x-y) / m
	}
	return 0
}
