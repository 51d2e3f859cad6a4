package ledger

import (
	"context"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gpubot/gpubot/knowledge"
)

// WindowDays is the usage window behind Usage and MostUsedCard: the last 30
// days, so a card running around the clock gives 720 card-hours per card.
const WindowDays = 30

// WindowHours is WindowDays in hours (720), the denominator of utilisation.
const WindowHours = WindowDays * 24

// Totals is what a set of entries adds up to.
type Totals struct {
	Entries   int     `json:"entries"`
	Unpriced  int     `json:"unpriced"` // entries without an amount (not in Amount)
	CardHours float64 `json:"card_hours"`
	Amount    Amounts `json:"amount"`              // per currency, never mixed; refunds netted
	Converted *Money  `json:"converted,omitempty"` // Amount in FX.To, when an FX covering every currency was given
	// Billed + Estimated + Refunds = Amount, per currency: what bills state,
	// what was typed or priced from the catalogue, and money that came back
	// (negative).
	Billed    Amounts `json:"billed,omitempty"`
	Estimated Amounts `json:"estimated,omitempty"`
	Refunds   Amounts `json:"refunds,omitempty"`
	// Superseded counts chat entries replaced by the bill line they repeat;
	// they are in no sum.
	Superseded int `json:"superseded,omitempty"`
	// GPU + NonGPU + Refunds = Amount, per currency: GPU time, the bill's
	// other costs (tax, support, storage, network, CPU and memory billed
	// apart), and money back.
	GPU    Amounts `json:"gpu,omitempty"`
	NonGPU Amounts `json:"non_gpu,omitempty"`
	// HoursUnknown counts amount-only entries (invoices, prepaid plans
	// without hours): their money is in the sums, their hours are not.
	HoursUnknown int `json:"hours_unknown,omitempty"`
}

func (t *Totals) add(e Entry) {
	if e.SupersededBy != "" {
		t.Superseded++
		return
	}
	t.Entries++
	t.CardHours += e.CardHours()
	if e.HoursUnknown {
		t.HoursUnknown++
	}
	if !e.Priced() {
		t.Unpriced++
		return
	}
	if t.Amount == nil {
		t.Amount, t.Billed, t.Estimated, t.Refunds = Amounts{}, Amounts{}, Amounts{}, Amounts{}
	}
	if t.GPU == nil {
		t.GPU, t.NonGPU = Amounts{}, Amounts{}
	}
	t.Amount.add(e.Amount)
	switch {
	case e.IsRefund():
		t.Refunds.add(e.Amount)
	case e.Billed():
		t.Billed.add(e.Amount)
	default:
		t.Estimated.add(e.Amount)
	}
	switch {
	case e.IsNonGPU():
		t.NonGPU.add(e.Amount)
	case !e.IsRefund():
		t.GPU.add(e.Amount)
	}
}

func (t *Totals) convert(fx *FX) {
	if fx == nil {
		return
	}
	if m, ok := fx.Convert(t.Amount); ok {
		t.Converted = &m
	}
}

// Group is one row of a rollup: a project, card, platform or billing mode,
// this period and the one before.
type Group struct {
	Key string `json:"key"`
	Totals
	Prev Totals `json:"prev"`
}

// Change is this period's amount minus the previous one, per currency.
func (g Group) Change() Amounts { return g.Amount.Sub(g.Prev.Amount) }

// Report is one team's month: totals, the previous month, and rollups by
// project, card (GPU-hours), platform and billing mode. Each group carries
// its previous-month figures; groups present in either month appear.
type Report struct {
	Team       string  `json:"team"`
	Month      Month   `json:"month"`
	Location   string  `json:"location"`
	Total      Totals  `json:"total"` // this month
	Prev       Totals  `json:"prev"`  // the month before
	FX         *FX     `json:"fx,omitempty"`
	ByProject  []Group `json:"by_project"`
	ByGPU      []Group `json:"by_gpu"` // GPU-hours by card are their CardHours
	ByPlatform []Group `json:"by_platform"`
	ByBilling  []Group `json:"by_billing"`
	// ByCost splits the month by what was paid for: "gpu", each non-GPU
	// category (CatTax, CatStorage …) and "credit" for money back.
	ByCost []Group `json:"by_cost"`
	// ByTeam is the company view: one group per team or cost centre
	// (Entry.CostCenter; "" for entries that name none).
	ByTeam   []Group `json:"by_team"`
	MostUsed string  `json:"most_used_gpu,omitempty"` // card with the most card-hours this month
	// Amortised is the month with prepaid terms (TermMonths > 1, e.g. a
	// 包年 plan) spread over the months they cover instead of counted in
	// full in the month billed: Total.Amount − terms billed this month +
	// this month's share of every term covering it. Nil when no term
	// touches the month (then it equals Total.Amount).
	Amortised Amounts `json:"amortised,omitempty"`
	Items     []Entry `json:"-"` // this month's entries, oldest first
	// Period is set on a report over a quarter or a year (ReportPeriod):
	// Total is the whole period, Prev the period before, and ByMonth has
	// one group per month with its month-over-month change (Prev).
	Period     *Period `json:"period,omitempty"`
	PrevPeriod *Period `json:"prev_period,omitempty"`
	ByMonth    []Group `json:"by_month,omitempty"`
}

// Label names the report's period: "2026-11", "2026-Q4", "2026".
func (r *Report) Label() string {
	if r.Period != nil {
		return r.Period.Label
	}
	return r.Month.String()
}

// PrevLabel names the period the report compares with.
func (r *Report) PrevLabel() string {
	if r.PrevPeriod != nil {
		return r.PrevPeriod.Label
	}
	return r.Month.Prev().String()
}

// ReportPeriod is Report over a quarter or a year (a one-month period is
// ReportWhere): totals and rollups over the whole period against the
// period before, one group per month with the change on the month before
// it, and the amortised view summed month by month.
func (l *Ledger) ReportPeriod(ctx context.Context, team string, p Period, fx *FX, keep Filter) (*Report, error) {
	if p.Months <= 1 {
		return l.ReportWhere(ctx, team, p.First, fx, keep)
	}
	pp := p.Prev()
	cur, err := l.Between(ctx, team, p.Start(l.loc), p.End(l.loc))
	if err != nil {
		return nil, err
	}
	prev, err := l.Between(ctx, team, pp.Start(l.loc), pp.End(l.loc))
	if err != nil {
		return nil, err
	}
	cur, prev = keep.apply(cur), keep.apply(prev)
	r := Summarize(team, p.First, l.loc, cur, prev, fx)
	r.Period, r.PrevPeriod = &p, &pp
	byMonth := map[Month][]Entry{}
	for _, e := range append(append([]Entry(nil), prev...), cur...) {
		m := MonthOf(e.At, l.loc)
		byMonth[m] = append(byMonth[m], e)
	}
	amort := Amounts{}
	for _, m := range p.MonthsIn() {
		g := Group{Key: m.String()}
		for _, e := range byMonth[m] {
			g.Totals.add(e)
		}
		for _, e := range byMonth[m.Prev()] {
			g.Prev.add(e)
		}
		g.Totals.convert(fx)
		g.Prev.convert(fx)
		r.ByMonth = append(r.ByMonth, g)
		from := m
		for range maxTermMonths - 1 {
			from = from.Prev()
		}
		window, err := l.Between(ctx, team, from.Start(l.loc), m.End(l.loc))
		if err != nil {
			return nil, err
		}
		a := amortise(g.Amount, keep.apply(byMonth[m]), keep.apply(window), m, l.loc)
		if a == nil {
			a = g.Amount
		}
		for c, v := range a {
			amort[c] += v
		}
	}
	// Only a period a prepaid term touches gets an amortised view.
	touched := false
	for c, v := range amort {
		touched = touched || r.Total.Amount[c] != v
	}
	if touched {
		r.Amortised = amort
	}
	return r, nil
}

// Change is this month's amount minus the previous month's, per currency.
func (r *Report) Change() Amounts { return r.Total.Amount.Sub(r.Prev.Amount) }

// Report rolls up month m of the team and compares it with the month before.
// fx, when given, adds converted totals (and orders groups by them); without
// it no two currencies are ever added.
func (l *Ledger) Report(ctx context.Context, team string, m Month, fx *FX) (*Report, error) {
	return l.ReportWhere(ctx, team, m, fx, nil)
}

// Filter keeps the entries a report is about; nil keeps all.
type Filter func(Entry) bool

// Where is the filter of spend report's settings: project=, team=,
// platform= and gpu= (a card id, or a family: "h100" keeps h100-sxm and
// h100-pcie). Empty values do not filter.
func Where(project, team, platform, gpu string) Filter {
	if project == "" && team == "" && platform == "" && gpu == "" {
		return nil
	}
	project, team = foldOrEmpty(project), foldOrEmpty(team)
	gpu = strings.ToLower(strings.TrimSpace(gpu))
	return func(e Entry) bool {
		return (project == "" || e.Project == project) && (team == "" || e.CostCenter == team) &&
			(platform == "" || e.Platform == platform) && (gpu == "" || InFamily(e.GPU, gpu))
	}
}

func foldOrEmpty(s string) string {
	if strings.TrimSpace(s) == "" {
		return ""
	}
	return normProject(s)
}

// ReportWhere is Report over the entries keep accepts (both months and
// the amortised view).
func (l *Ledger) ReportWhere(ctx context.Context, team string, m Month, fx *FX, keep Filter) (*Report, error) {
	cur, err := l.List(ctx, team, m, "")
	if err != nil {
		return nil, err
	}
	prev, err := l.List(ctx, team, m.Prev(), "")
	if err != nil {
		return nil, err
	}
	cur, prev = keep.apply(cur), keep.apply(prev)
	r := Summarize(team, m, l.loc, cur, prev, fx)
	from := m
	for range maxTermMonths - 1 {
		from = from.Prev()
	}
	earlier, err := l.Between(ctx, team, from.Start(l.loc), m.End(l.loc))
	if err != nil {
		return nil, err
	}
	r.Amortised = amortise(r.Total.Amount, cur, keep.apply(earlier), m, l.loc)
	return r, nil
}

// Summarize builds a Report from a month's entries and the previous month's.
// It is pure, for tests and previews over entries from elsewhere.
func Summarize(team string, m Month, loc *time.Location, cur, prev []Entry, fx *FX) *Report {
	r := &Report{Team: team, Month: m, Location: loc.String(), FX: fx, Items: cur}
	for _, e := range cur {
		r.Total.add(e)
	}
	for _, e := range prev {
		r.Prev.add(e)
	}
	r.Total.convert(fx)
	r.Prev.convert(fx)
	r.ByProject = Rollup(cur, prev, func(e Entry) string { return e.Project }, fx)
	r.ByGPU = Rollup(cur, prev, gpuKey, fx)
	r.ByPlatform = Rollup(cur, prev, func(e Entry) string { return e.Platform }, fx)
	r.ByBilling = Rollup(cur, prev, func(e Entry) string { return string(e.Billing) }, fx)
	r.ByCost = Rollup(cur, prev, CostKey, fx)
	r.ByTeam = Rollup(cur, prev, func(e Entry) string { return e.CostCenter }, fx)
	r.MostUsed = mostUsed(r.ByGPU)
	return r
}

// Rollup groups entries by key, this period (cur) and the one before
// (prev). Groups are ordered by converted amount when fx is given, else by
// card-hours, largest first, then by key.
func Rollup(cur, prev []Entry, key func(Entry) string, fx *FX) []Group {
	idx := map[string]int{}
	var out []Group
	at := func(k string) *Group {
		i, ok := idx[k]
		if !ok {
			i = len(out)
			idx[k] = i
			out = append(out, Group{Key: k})
		}
		return &out[i]
	}
	for _, e := range cur {
		at(key(e)).Totals.add(e)
	}
	for _, e := range prev {
		at(key(e)).Prev.add(e)
	}
	for i := range out {
		out[i].Totals.convert(fx)
		out[i].Prev.convert(fx)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Converted != nil && b.Converted != nil && a.Converted.Minor != b.Converted.Minor {
			return a.Converted.Minor > b.Converted.Minor
		}
		if a.CardHours != b.CardHours {
			return a.CardHours > b.CardHours
		}
		return a.Key < b.Key
	})
	return out
}

// FormatCardHours writes card-hours the one way every view shows them:
// rounded to a tenth, no trailing zeros ("4911.5", "200"). Sums of
// fractional entries then read the same in the report, the recap and the
// findings (they read 4,912 in one view and 4,911.5 in another).
func FormatCardHours(h float64) string {
	return strings.TrimSuffix(strings.TrimRight(strconv.FormatFloat(math.Round(h*10)/10, 'f', 1, 64), "0"), ".")
}

// Other is the key of the row that gathers the groups Top leaves out.
const Other = "other"

// Top keeps the first n-1 groups and folds the rest into one Other row, so
// the rows shown always add up to the total ("…and 3 more" hid amounts).
// With n groups or fewer it returns gs unchanged.
func Top(gs []Group, n int, fx *FX) []Group {
	if n <= 0 || len(gs) <= n {
		return gs
	}
	out := append([]Group(nil), gs[:n-1]...)
	other := Group{Key: Other}
	for _, g := range gs[n-1:] {
		other.Totals = merge(other.Totals, g.Totals)
		other.Prev = merge(other.Prev, g.Prev)
	}
	other.Totals.convert(fx)
	other.Prev.convert(fx)
	return append(out, other)
}

func merge(a, b Totals) Totals {
	a.Entries += b.Entries
	a.Unpriced += b.Unpriced
	a.CardHours += b.CardHours
	a.Superseded += b.Superseded
	for _, p := range []struct {
		dst *Amounts
		src Amounts
	}{{&a.Amount, b.Amount}, {&a.Billed, b.Billed}, {&a.Estimated, b.Estimated}, {&a.Refunds, b.Refunds}} {
		for c, v := range p.src {
			if *p.dst == nil {
				*p.dst = Amounts{}
			}
			(*p.dst)[c] += v
		}
	}
	a.Converted = nil
	return a
}

func mostUsed(byGPU []Group) string {
	best, bestH := "", 0.0
	for _, g := range byGPU {
		if g.CardHours > bestH || (g.CardHours == bestH && g.CardHours > 0 && g.Key < best) {
			best, bestH = g.Key, g.CardHours
		}
	}
	return best
}

// CardUsage is how much of one card type the team used in a window.
//
// Utilisation = CardHours ÷ (Cards × window hours); for the 30-day window
// that is card-hours ÷ (cards × 720 h). Cards is the team's fleet of that
// card: the count passed in (team profile) or, failing that, the most cards
// any single entry in the window used. Entries that ran side by side on
// separate machines can push it above 1; pass the fleet size to avoid that.
type CardUsage struct {
	GPU         string              `json:"gpu"`
	Entries     int                 `json:"entries"`
	Cards       int                 `json:"cards"`
	CardsGiven  bool                `json:"cards_given"` // Cards came from the caller, not estimated
	CardHours   float64             `json:"card_hours"`
	WallHours   float64             `json:"wall_hours"` // sum of entry hours, regardless of card count
	Utilisation float64             `json:"utilisation"`
	Amount      Amounts             `json:"amount"`
	ByBilling   map[Billing]float64 `json:"by_billing"`  // card-hours per billing mode
	ByPlatform  map[string]float64  `json:"by_platform"` // card-hours per platform
	From        time.Time           `json:"from"`
	To          time.Time           `json:"to"`
}

// Usage is per-card usage over the 30 days before now (from ≤ At < now),
// most card-hours first. fleet optionally gives the team's card counts by
// canonical id (see CardUsage).
func (l *Ledger) Usage(ctx context.Context, team string, now time.Time, fleet map[string]int) ([]CardUsage, error) {
	from := now.Add(-WindowHours * time.Hour)
	es, err := l.Between(ctx, team, from, now)
	if err != nil {
		return nil, err
	}
	return UsageOf(es, from, now, fleet), nil
}

// MostUsedCard is the card with the most card-hours in the last 30 days; ok
// is false when the team logged nothing then.
func (l *Ledger) MostUsedCard(ctx context.Context, team string, now time.Time) (CardUsage, bool, error) {
	us, err := l.Usage(ctx, team, now, nil)
	if err != nil || len(us) == 0 {
		return CardUsage{}, false, err
	}
	return us[0], true, nil
}

// UsageOf computes CardUsage over entries already cut to [from, to).
func UsageOf(es []Entry, from, to time.Time, fleet map[string]int) []CardUsage {
	window := to.Sub(from).Hours()
	idx := map[string]int{}
	var out []CardUsage
	runs := map[string][]run{}
	for _, e := range es {
		if e.GPU == "" || !e.IsGPU() {
			continue // refunds and non-GPU costs are no card's usage
		}
		i, ok := idx[e.GPU]
		if !ok {
			i = len(out)
			idx[e.GPU] = i
			out = append(out, CardUsage{GPU: e.GPU, Amount: Amounts{}, ByBilling: map[Billing]float64{}, ByPlatform: map[string]float64{}, From: from, To: to})
		}
		u := &out[i]
		u.Entries++
		u.CardHours += e.CardHours()
		u.WallHours += e.Hours
		u.Amount.add(e.Amount)
		u.ByBilling[e.Billing] += e.CardHours()
		u.ByPlatform[e.Platform] += e.CardHours()
		switch {
		case e.Hours <= 0:
		case strings.HasPrefix(e.Source, "csv:") || !e.Start.IsZero():
			// Bill lines are resources billed side by side (one line per
			// card or machine): they count where their times overlap.
			from := e.At
			if !e.Start.IsZero() {
				from = e.Start
			}
			runs[e.GPU] = append(runs[e.GPU], run{from: from, to: from.Add(time.Duration(e.Hours * float64(time.Hour))), cards: e.Cards})
		case e.Cards > u.Cards:
			u.Cards = e.Cards // a hand entry: jobs typed one by one are taken to run one after another
		}
	}
	for i := range out {
		u := &out[i]
		u.Cards = max(u.Cards, peakCards(runs[u.GPU]))
		// However the lines overlap, the cards cannot have run more than
		// the window: card-hours ÷ window hours, rounded up, is a floor.
		if window > 0 {
			if floor := int(math.Ceil(u.CardHours/window - 1e-9)); floor > u.Cards {
				u.Cards = floor
			}
		}
		if n := fleet[u.GPU]; n > 0 {
			u.Cards, u.CardsGiven = n, true
		}
		if u.Cards > 0 && window > 0 {
			u.Utilisation = u.CardHours / (float64(u.Cards) * window)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].CardHours != out[j].CardHours {
			return out[i].CardHours > out[j].CardHours
		}
		return out[i].GPU < out[j].GPU
	})
	return out
}

func (f Filter) apply(es []Entry) []Entry {
	if f == nil {
		return es
	}
	var out []Entry
	for _, e := range es {
		if f(e) {
			out = append(out, e)
		}
	}
	return out
}

// amortise is the month's total with prepaid terms spread (see
// Report.Amortised); nil when no term touches month m.
func amortise(total Amounts, cur, window []Entry, m Month, loc *time.Location) Amounts {
	out := Amounts{}
	for c, v := range total {
		out[c] = v
	}
	touched := false
	for _, e := range cur {
		if e.TermMonths > 1 && e.Priced() && e.SupersededBy == "" {
			out[e.Amount.Currency] -= e.Amount.Minor
			touched = true
		}
	}
	for _, e := range window {
		if e.SupersededBy != "" {
			continue
		}
		if v := share(e, m, loc); v != 0 {
			out[e.Amount.Currency] += v
			touched = true
		}
	}
	if !touched {
		return nil
	}
	return out
}

// NonGPUKey is the ByGPU row of non-GPU costs (tax, storage …), so the
// rows still add up to the total.
const NonGPUKey = "non-gpu"

func gpuKey(e Entry) string {
	if e.IsNonGPU() {
		return NonGPUKey
	}
	return e.GPU
}

// CostKey is what an entry paid for, as Report.ByCost groups it: "gpu",
// "credit", or the non-GPU category.
func CostKey(e Entry) string {
	switch {
	case e.IsRefund():
		return "credit"
	case e.IsNonGPU():
		return e.Category
	}
	return "gpu"
}

// run is one entry's cards over the time they ran.
type run struct {
	from, to time.Time
	cards    int
}

// peakCards is the most cards running at one moment: per-card bill lines
// (eight lines of one H100 each, side by side) are eight cards, not one,
// while two jobs one after the other on one card stay one. An entry runs
// from its At for its Hours.
func peakCards(rs []run) int {
	type edge struct {
		t     time.Time
		delta int
	}
	var es []edge
	for _, r := range rs {
		es = append(es, edge{r.from, r.cards}, edge{r.to, -r.cards})
	}
	sort.Slice(es, func(i, j int) bool {
		if !es[i].t.Equal(es[j].t) {
			return es[i].t.Before(es[j].t)
		}
		return es[i].delta < es[j].delta // one ending as the next starts: not side by side
	})
	peak, n := 0, 0
	for _, e := range es {
		n += e.delta
		peak = max(peak, n)
	}
	return peak
}

// Currencies lists every currency in the report, this month or the last.
func (r *Report) Currencies() []knowledge.Currency {
	all := Amounts{}
	for c := range r.Total.Amount {
		all[c] = 0
	}
	for c := range r.Prev.Amount {
		all[c] = 0
	}
	return all.Currencies()
}

// Apply keeps the entries f accepts (all when f is nil).
func (f Filter) Apply(es []Entry) []Entry { return f.apply(es) }

// Add counts e in t (superseded entries only in Superseded).
func (t *Totals) Add(e Entry) { t.add(e) }

// FoldName folds a project or team name the way entries store it
// ("LLM FT" → "llm-ft").
func FoldName(s string) string { return foldOrEmpty(s) }
