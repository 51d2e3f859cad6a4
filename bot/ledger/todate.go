package ledger

import (
	"context"
	"time"
)

// ToDate is everything a team has booked up to now: "how much has atlas
// spent so far?", "累计花了多少". With no month said, "so far" means since
// the first entry, not this month.
type ToDate struct {
	// First is the date of the earliest entry kept (zero when none);
	// Through is now, the end of the span.
	First   time.Time `json:"first"`
	Through time.Time `json:"through"`
	Total   Totals    `json:"total"`
	// ThisMonth is the month holding now, shown beside the whole span.
	Month     Month   `json:"month"`
	ThisMonth Totals  `json:"this_month"`
	Items     []Entry `json:"-"` // the entries kept, oldest first
}

// ToDate adds up the team's entries that keep accepts, from the first one
// to now, with this month's share apart. fx, when given, adds converted
// totals; without it no two currencies are added.
func (l *Ledger) ToDate(ctx context.Context, team string, now time.Time, fx *FX, keep Filter) (ToDate, error) {
	m := MonthOf(now, l.loc)
	// to the end of this month: an entry dated today after now still counts
	es, err := l.Between(ctx, team, time.Time{}, m.End(l.loc))
	if err != nil {
		return ToDate{}, err
	}
	es = keep.apply(es)
	d := ToDate{Through: now.In(l.loc), Month: m, Items: es}
	start := m.Start(l.loc)
	for _, e := range es {
		if e.SupersededBy == "" && (d.First.IsZero() || e.At.Before(d.First)) {
			d.First = e.At // the earliest entry counted (a replaced estimate is in no sum)
		}
		d.Total.add(e)
		if !e.At.Before(start) {
			d.ThisMonth.add(e)
		}
	}
	d.Total.convert(fx)
	d.ThisMonth.convert(fx)
	return d, nil
}

// Span is the to-date period for a report over it: its months, labelled
// "first → today" (dates, the same in every language).
func (d ToDate) Span() Period {
	first := MonthOf(d.First, d.First.Location())
	if d.First.IsZero() {
		first = d.Month
	}
	n := (d.Month.Year-first.Year)*12 + int(d.Month.Month) - int(first.Month) + 1
	return Period{First: first, Months: max(n, 1), Label: d.First.Format("2006-01-02") + " → " + d.Through.Format("2006-01-02")}
}
