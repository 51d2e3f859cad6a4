package ledger

import (
	"context"
	"sort"
	"strings"
	"time"
)

// maxTermMonths bounds how far back Report looks for prepaid terms that
// still cover a month (three-year reservations).
const maxTermMonths = 36

// termWords are billing words that state a prepaid term in months.
var termWords = map[string]int{
	"包年": 12, "年付": 12, "yearly": 12, "annual": 12, "annually": 12, "1年": 12, "一年": 12,
	"包季": 3, "quarterly": 3, "包半年": 6, "半年": 6,
	"包月": 1, "月付": 1,
}

// TermOf is the prepaid term, in months, a billing word states ("包年" =
// 12); 0 when it states none.
func TermOf(word string) int {
	return termWords[strings.ToLower(strings.ReplaceAll(strings.TrimSpace(word), " ", ""))]
}

// Commitment is a prepaid plan (TermMonths > 1): billed once, spread over
// its term in the amortised view.
type Commitment struct {
	Entry     Entry     `json:"entry"`
	PerMonth  Money     `json:"per_month"` // Amount ÷ TermMonths
	From      Month     `json:"from"`      // the first month it covers
	Renews    time.Time `json:"renews"`    // At + TermMonths: when it ends or renews
	MonthsUse int       `json:"months_used"`
}

// share is e's amortised amount in month m (0 outside its term): Amount ÷
// term, the last month taking the rounding remainder so the shares add up
// to the amount exactly.
func share(e Entry, m Month, loc *time.Location) int64 {
	if e.TermMonths <= 1 || !e.Priced() {
		return 0
	}
	first := MonthOf(e.At, loc)
	i := (m.Year-first.Year)*12 + int(m.Month) - int(first.Month)
	if i < 0 || i >= e.TermMonths {
		return 0
	}
	per := e.Amount.Minor / int64(e.TermMonths)
	if i == e.TermMonths-1 {
		return e.Amount.Minor - per*int64(e.TermMonths-1)
	}
	return per
}

// Commitments lists the team's prepaid terms that cover now or start after
// it, with their renewal dates, soonest renewal first.
func (l *Ledger) Commitments(ctx context.Context, team string, now time.Time) ([]Commitment, error) {
	m := MonthOf(now, l.loc)
	from := m
	for range maxTermMonths {
		from = from.Prev()
	}
	es, err := l.Between(ctx, team, from.Start(l.loc), time.Time{})
	if err != nil {
		return nil, err
	}
	var out []Commitment
	for _, e := range es {
		if e.TermMonths <= 1 || e.SupersededBy != "" || !e.Priced() {
			continue
		}
		first := MonthOf(e.At, l.loc)
		renews := first.Start(l.loc).AddDate(0, e.TermMonths, 0)
		if !renews.After(now) {
			continue
		}
		used := (m.Year-first.Year)*12 + int(m.Month) - int(first.Month) + 1
		out = append(out, Commitment{Entry: e, PerMonth: Money{Minor: e.Amount.Minor / int64(e.TermMonths), Currency: e.Amount.Currency},
			From: first, Renews: renews, MonthsUse: max(0, min(used, e.TermMonths))})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Renews.Before(out[j].Renews) })
	return out, nil
}
