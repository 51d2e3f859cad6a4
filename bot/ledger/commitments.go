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
	Renews    time.Time `json:"renews"`    // the day of At + TermMonths: when it ends or renews
	MonthsUse int       `json:"months_used"`

	// The commitments list (Ledger.CommitmentList) fills the rest.

	// Term is the term in months: TermMonths, or 1 for a 包月 plan.
	Term   int       `json:"term_months"`
	Starts time.Time `json:"starts"` // the start of At's day
	// Committed is the card-hours paid for so far: Cards × the hours from
	// Starts to now (or to Renews); 0 when the card count is unknown.
	Committed float64 `json:"committed_card_hours"`
	// Used is the card-hours recorded on it: the plan's own hours, then
	// hours logged on the same platform and card dated inside the term
	// that were not paid for apart (onPlan), each counted once (the
	// earliest-starting commitment with room takes it). UsageKnown is
	// false when there is none: the hours used are unknown, never zero,
	// and Idle is then 0.
	Used       float64  `json:"used_card_hours"`
	UsageKnown bool     `json:"usage_known"`
	Idle       float64  `json:"idle_card_hours"` // Committed − Used, never below 0
	IdleShare  float64  `json:"idle_share"`      // Idle ÷ Committed
	UsedBy     []string `json:"used_by,omitempty"`
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
		renews := l.dayOf(e.At).AddDate(0, e.TermMonths, 0)
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

// dayOf is the start of t's day in the ledger's time zone.
func (l *Ledger) dayOf(t time.Time) time.Time {
	t = t.In(l.loc)
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, l.loc)
}

// committedPlan reports whether e is a commitment the list shows: GPU
// spend paid for a term up front (包月, 包年, reserved, prepaid), priced
// and not replaced by a bill line.
func committedPlan(e Entry) bool {
	return e.IsGPU() && e.SupersededBy == "" && e.Priced() && (e.TermMonths > 1 || e.Billing == Monthly)
}

// CommitmentList is every commitment running at now — prepaid terms
// (TermMonths > 1) and one-month plans (包月: Billing Monthly) — with its
// term, start, renewal date, amortised monthly cost and the card-hours
// used and idle over the term so far (see Commitment.Used), soonest
// renewal first.
func (l *Ledger) CommitmentList(ctx context.Context, team string, now time.Time) ([]Commitment, error) {
	m := MonthOf(now, l.loc)
	from := m
	for range maxTermMonths {
		from = from.Prev()
	}
	es, err := l.Between(ctx, team, from.Start(l.loc), time.Time{})
	if err != nil {
		return nil, err
	}
	return Held(es, now, l.loc), nil
}

// Held is CommitmentList over entries es (pure: the list's arithmetic).
func Held(es []Entry, now time.Time, loc *time.Location) []Commitment {
	l := &Ledger{loc: loc}
	m := MonthOf(now, loc)
	var out []Commitment
	for _, e := range es {
		if !committedPlan(e) {
			continue
		}
		term := max(e.TermMonths, 1)
		starts := l.dayOf(e.At)
		renews := starts.AddDate(0, term, 0)
		if !renews.After(now) {
			continue
		}
		first := MonthOf(e.At, loc)
		used := (m.Year-first.Year)*12 + int(m.Month) - int(first.Month) + 1
		c := Commitment{Entry: e, PerMonth: Money{Minor: e.Amount.Minor / int64(term), Currency: e.Amount.Currency},
			From: first, Renews: renews, MonthsUse: max(0, min(used, term)), Term: term, Starts: starts}
		if end := minTime(now, renews); end.After(starts) {
			c.Committed = float64(e.Cards) * end.Sub(starts).Hours()
		}
		if !e.HoursUnknown && e.CardHours() > 0 {
			c.Used, c.UsageKnown, c.UsedBy = e.CardHours(), true, []string{e.ID}
		}
		out = append(out, c)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Starts.Before(out[j].Starts) })
	// Usage entries, oldest first, each to the earliest-starting
	// commitment on its platform and card whose term holds it and that
	// has room left (all of it when the card count is unknown).
	var usage []Entry
	for _, e := range es {
		if onPlan(e) {
			usage = append(usage, e)
		}
	}
	sort.SliceStable(usage, func(i, j int) bool { return usage[i].At.Before(usage[j].At) })
	for _, u := range usage {
		left := u.CardHours()
		for i := range out {
			c := &out[i]
			if left <= 0 {
				break
			}
			if c.Entry.Platform != u.Platform || c.Entry.GPU != u.GPU || u.At.Before(c.Starts) || !u.At.Before(minTime(now, c.Renews)) {
				continue
			}
			take := left
			if c.Committed > 0 {
				take = min(left, c.Committed-c.Used)
			}
			if take <= 0 && c.Committed > 0 {
				continue
			}
			c.Used += take
			c.UsageKnown = true
			c.UsedBy = append(c.UsedBy, u.ID)
			left -= take
		}
	}
	for i := range out {
		c := &out[i]
		if c.UsageKnown && c.Committed > 0 {
			c.Idle = max(0, c.Committed-c.Used)
			c.IdleShare = c.Idle / c.Committed
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Renews.Before(out[j].Renews) })
	return out
}

// onPlan reports whether e is hours that may have run on a commitment:
// GPU hours logged as 包月/prepaid use, or without an amount of their own
// (none given: unpriced or priced from the catalogue). A run with its own
// on-demand or spot charge was paid for apart and never counts.
func onPlan(e Entry) bool {
	if !e.IsGPU() || e.SupersededBy != "" || e.HoursUnknown || e.CardHours() <= 0 || committedPlan(e) {
		return false
	}
	return e.Billing == Monthly || !e.Priced() || e.Derived != ""
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// GPUFamily reads a card or a card family as a filter value: "H100" is
// the family (every id "h100-…": H100 SXM and PCIe), "a100" the A100 40GB
// and 80GB, "h100-sxm" or "4090" one card. ok is false for a name that is
// neither. Entries match with InFamily.
func (l *Ledger) GPUFamily(name string) (string, bool) {
	n := strings.ToLower(strings.TrimSpace(name))
	if n == "" {
		return "", false
	}
	if l.kb == nil {
		return n, true
	}
	for _, g := range l.kb.GPUs {
		if g.ID == n || strings.HasPrefix(g.ID, n+"-") {
			return n, true
		}
	}
	if g, ok := l.kb.GPU(name); ok {
		return g.ID, true
	}
	return "", false
}

// InFamily reports whether card id gpu is fam or one of its variants
// ("h100-sxm" is in "h100"; "rtx4090d" is not in "rtx4090").
func InFamily(gpu, fam string) bool {
	return fam != "" && (gpu == fam || strings.HasPrefix(gpu, fam+"-"))
}
