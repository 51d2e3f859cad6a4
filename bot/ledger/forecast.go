package ledger

import (
	"fmt"
	"math"
	"time"
)

// Forecast is the next month's spend as a recap states it: what is
// already committed for it plus the closing month's run rate, with a
// range and the method.
type Forecast struct {
	Month     Month `json:"month"`     // the month forecast
	Committed Money `json:"committed"` // prepaid terms' shares falling in Month, plus the 包月 plans assumed to renew
	// Renewing is the part of Committed that is the closing month's
	// one-month plans (包月), assumed to renew for Month.
	Renewing Money `json:"renewing"`
	// RunRate is the closing month's on-demand and spot GPU spend a day
	// (usage ÷ its days); Week the same over its last 7 days.
	RunRate   Money  `json:"run_rate"`
	Week      Money  `json:"week_rate"`
	Days      int    `json:"days"` // days in Month
	Projected Money  `json:"projected"`
	Low       Money  `json:"low"`
	High      Money  `json:"high"`
	How       string `json:"how"`
}

// usage reports whether e is spend that accrues with time (on demand or
// spot GPU hours), rather than a charge for a period.
func usage(e Entry) bool {
	return e.IsGPU() && e.Billing != Monthly && !e.HoursUnknown && e.TermMonths <= 1 && e.SupersededBy == "" && e.Priced()
}

// ForecastNext forecasts the month after m from m's entries (cur) and the
// prepaid terms that may cover the next month (terms: entries with
// TermMonths > 1): committed = their shares of it; run rate = m's usage ÷
// its days, and over m's last 7 days; projected = committed + run rate ×
// the next month's days, the range taking the lower and higher of the two
// rates. Amounts are converted at fx (nil: cur must be in one currency).
// ok is false when there is neither usage nor a commitment.
func ForecastNext(cur, terms []Entry, m Month, loc *time.Location, fx *FX) (Forecast, bool) {
	next := m.Next()
	end := m.End(loc)
	weekFrom := end.Add(-7 * 24 * time.Hour)
	var use, week, committed Amounts = Amounts{}, Amounts{}, Amounts{}
	for _, e := range cur {
		if usage(e) {
			use.add(e.Amount)
			if !e.At.Before(weekFrom) {
				week.add(e.Amount)
			}
		}
	}
	renew := Amounts{}
	for _, e := range cur {
		// a 包月 plan running in the closing month renews unless stopped:
		// the next month pays it again
		if e.IsGPU() && e.Billing == Monthly && e.TermMonths <= 1 && e.SupersededBy == "" && e.Priced() && e.Amount.Minor > 0 {
			renew.add(e.Amount)
			committed.add(e.Amount)
		}
	}
	seen := map[string]bool{}
	for _, e := range terms {
		if seen[e.ID] || e.SupersededBy != "" {
			continue
		}
		seen[e.ID] = true
		if v := share(e, next, loc); v != 0 {
			committed[e.Amount.Currency] += v
		}
	}
	if len(use) == 0 && len(committed) == 0 {
		return Forecast{}, false
	}
	conv := func(a Amounts) (Money, bool) {
		if fx != nil {
			return fx.Convert(a)
		}
		if len(a) > 1 {
			return Money{}, false
		}
		for c, v := range a {
			return Money{Minor: v, Currency: c}, true
		}
		return Money{}, true
	}
	u, ok1 := conv(use)
	w, ok2 := conv(week)
	c, ok3 := conv(committed)
	rn, ok4 := conv(renew)
	if !ok1 || !ok2 || !ok3 || !ok4 {
		return Forecast{}, false
	}
	cur0 := u.Currency
	for _, x := range []Money{w, c} {
		if cur0 == "" {
			cur0 = x.Currency
		}
	}
	days := float64(end.Sub(m.Start(loc)).Hours() / 24)
	nd := int(math.Round(next.End(loc).Sub(next.Start(loc)).Hours() / 24))
	rate := float64(u.Minor) / days
	rateW := float64(w.Minor) / 7
	lo, hi := math.Min(rate, rateW), math.Max(rate, rateW)
	minor := func(v float64) Money { return Money{Minor: int64(math.Round(v)), Currency: cur0} }
	f := Forecast{Month: next, Committed: Money{Minor: c.Minor, Currency: cur0}, RunRate: minor(rate), Week: minor(rateW), Days: nd,
		Projected: minor(float64(c.Minor) + rate*float64(nd)), Low: minor(float64(c.Minor) + lo*float64(nd)), High: minor(float64(c.Minor) + hi*float64(nd))}
	f.Renewing = Money{Minor: rn.Minor, Currency: cur0}
	f.How = fmt.Sprintf("committed %s (prepaid terms' shares of %s, and %s of 包月 plans assumed to renew) + run rate %s a day (%s's on-demand and spot GPU spend %s ÷ %s days) × %d days = %s; range %s–%s with the last 7 days' rate %s a day",
		f.Committed, next, f.Renewing, f.RunRate, m, Money{Minor: u.Minor, Currency: cur0}, fmtNum(days), nd, f.Projected, f.Low, f.High, f.Week)
	return f, true
}
