// Package budget keeps monthly GPU budgets per project (or for the whole
// team), shows how each stands, and posts an alert in the team's channel
// when spend passes 50, 80 and 100 % of a budget, or when at its pace it
// will pass 100 % before the month ends (the forecast alert). Each alert is
// posted once per month, however many replicas run: the posts go through
// bot/schedule's exactly-once delivery, and a team-level mark records what
// was sent.
//
// # Redis layout (T = team id, a hash tag: one cluster slot per team)
//
//	gpubot:budget:{T}:b        hash  project ("*" for the team) → Budget JSON
//	gpubot:budget:{T}:sent     hash  "project|2026-10|80" → unix seconds posted
//	gpubot:budget:{T}:ack      hash  "project|2026-10|80" → user who acknowledged
//	gpubot:budget:{T}:pending  hash  "channel|period" → alerts of a post in flight
package budget

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gpubot/gpubot/bot/ledger"
	"github.com/gpubot/gpubot/knowledge"
)

// Team is the Project of a budget for the whole team.
const Team = "*"

// Scope prefixes of a budget's Project for the other dimensions: a team
// or cost centre ("team:vision"), a platform ("platform:autodl") and a
// card or card family ("gpu:h100": H100 SXM and PCIe; ledger.InFamily).
const (
	TeamScope     = "team:"
	PlatformScope = "platform:"
	GPUScope      = "gpu:"
)

// Budget is a spend limit for a calendar month, quarter or year.
type Budget struct {
	Team string `json:"team"`
	// Project is what the budget covers: a ledger project (folded), Team
	// for the whole workspace, TeamScope+name for a team or cost centre,
	// PlatformScope+id for a platform, GPUScope+card or family for cards.
	Project string       `json:"project"`
	Amount  ledger.Money `json:"amount"` // per Period
	SetBy   string       `json:"set_by"`
	SetAt   time.Time    `json:"set_at"`
	// Period is Month (""), Quarter or Year.
	Period string `json:"period,omitempty"`
	// Alerts are the shares (%) that trigger an alert; nil is Thresholds.
	Alerts []int `json:"alerts,omitempty"`
}

// Budget periods.
const (
	Month   = ""
	Quarter = "quarter"
	Year    = "year"
)

// Covers reports whether e's spend counts against b.
func (b Budget) Covers(e ledger.Entry) bool {
	switch {
	case b.Project == Team:
		return true
	case strings.HasPrefix(b.Project, TeamScope):
		// "for team nlp" and "nlp 组", "for infra" (no team booked): the
		// same team, however the entry named it
		t := teamStem(strings.TrimPrefix(b.Project, TeamScope))
		return teamStem(e.CostCenter) == t || e.CostCenter == "" && teamStem(e.Project) == t
	case strings.HasPrefix(b.Project, PlatformScope):
		return e.Platform == strings.TrimPrefix(b.Project, PlatformScope)
	case strings.HasPrefix(b.Project, GPUScope):
		return ledger.InFamily(e.GPU, strings.TrimPrefix(b.Project, GPUScope))
	}
	return e.Project == b.Project
}

// thresholds are b's alert shares, lowest first.
func (b Budget) thresholds() []int {
	if len(b.Alerts) > 0 {
		return b.Alerts
	}
	return Thresholds
}

// PeriodOf is the calendar period of b that holds now: its first month,
// start, end and label ("2026-10", "2026-Q4", "2026").
func (b Budget) PeriodOf(now time.Time, loc *time.Location) (first ledger.Month, from, to time.Time, label string) {
	m := ledger.MonthOf(now, loc)
	switch b.Period {
	case Quarter:
		q := (int(m.Month) - 1) / 3
		first = ledger.Month{Year: m.Year, Month: time.Month(q*3 + 1)}
		from = first.Start(loc)
		return first, from, from.AddDate(0, 3, 0), fmt.Sprintf("%d-Q%d", m.Year, q+1)
	case Year:
		first = ledger.Month{Year: m.Year, Month: time.January}
		from = first.Start(loc)
		return first, from, from.AddDate(1, 0, 0), fmt.Sprint(m.Year)
	}
	return m, m.Start(loc), m.End(loc), m.String()
}

// Store keeps budgets and alert marks in Redis.
type Store struct {
	rdb     redis.UniversalClient
	persist func(context.Context) error
}

// NewStore returns a Store; persist (the embedded journal's fsync) runs
// after each write and may be nil.
func NewStore(rdb redis.UniversalClient, persist func(context.Context) error) *Store {
	return &Store{rdb: rdb, persist: persist}
}

func prefix(team string) string { return "gpubot:budget:{" + team + "}:" }

func (s *Store) saved(ctx context.Context) error {
	if s.persist != nil {
		return s.persist(ctx)
	}
	return nil
}

// Set stores b, replacing the project's budget.
func (s *Store) Set(ctx context.Context, b Budget) error {
	raw, err := json.Marshal(b)
	if err != nil {
		return err
	}
	if err := s.rdb.HSet(ctx, prefix(b.Team)+"b", b.Project, raw).Err(); err != nil {
		return fmt.Errorf("write budget: %w", err)
	}
	// The team index lets alerts reach a team that subscribed to nothing
	// but named a channel in its profile.
	if err := s.rdb.SAdd(ctx, teamsKey, b.Team).Err(); err != nil {
		return fmt.Errorf("write budget: %w", err)
	}
	return s.saved(ctx)
}

// teamsKey is the set of teams that ever set a budget.
const teamsKey = "gpubot:budget:teams"

// Teams is every team that has set a budget, sorted.
func (s *Store) Teams(ctx context.Context) ([]string, error) {
	ts, err := s.rdb.SMembers(ctx, teamsKey).Result()
	if err != nil {
		return nil, fmt.Errorf("read budget teams: %w", err)
	}
	sort.Strings(ts)
	return ts, nil
}

// Clear removes a project's budget; false when it had none.
func (s *Store) Clear(ctx context.Context, team, project string) (bool, error) {
	n, err := s.rdb.HDel(ctx, prefix(team)+"b", project).Result()
	if err != nil {
		return false, fmt.Errorf("delete budget: %w", err)
	}
	return n > 0, s.saved(ctx)
}

// List is the team's budgets, team-wide first, then by project.
func (s *Store) List(ctx context.Context, team string) ([]Budget, error) {
	m, err := s.rdb.HGetAll(ctx, prefix(team)+"b").Result()
	if err != nil {
		return nil, fmt.Errorf("read budgets: %w", err)
	}
	var out []Budget
	for _, raw := range m {
		var b Budget
		if err := json.Unmarshal([]byte(raw), &b); err != nil {
			return nil, fmt.Errorf("decode budget: %w", err)
		}
		out = append(out, b)
	}
	sort.Slice(out, func(i, j int) bool {
		if (out[i].Project == Team) != (out[j].Project == Team) {
			return out[i].Project == Team
		}
		return out[i].Project < out[j].Project
	})
	return out, nil
}

// Ack records that user acknowledged alert id ("project|month|kind").
func (s *Store) Ack(ctx context.Context, team, id, user string) error {
	if err := s.rdb.HSetNX(ctx, prefix(team)+"ack", id, user).Err(); err != nil {
		return fmt.Errorf("acknowledge budget alert: %w", err)
	}
	return s.saved(ctx)
}

// Acked returns who acknowledged alert id ("" when nobody has).
func (s *Store) Acked(ctx context.Context, team, id string) (string, error) {
	u, err := s.rdb.HGet(ctx, prefix(team)+"ack", id).Result()
	if errors.Is(err, redis.Nil) {
		return "", nil
	}
	return u, err
}

// State is how a budget stands in its period at a moment.
type State struct {
	Budget Budget       `json:"budget"`
	Month  ledger.Month `json:"month"`  // the period's first month
	Period string       `json:"period"` // "2026-10", "2026-Q4", "2026"
	Spent  ledger.Money `json:"spent"`  // in the budget's currency; refunds netted, superseded entries left out
	Share  float64      `json:"share"`  // Spent ÷ budget
	// Committed is the part of Spent that is a charge for the period, not
	// a rate: 包月/prepaid plans, amount-only invoices, non-GPU costs and
	// refunds. The forecast adds it once and extrapolates only the rest.
	Committed ledger.Money `json:"committed"`
	// Projected = Committed + usage so far + run rate × days left, the run
	// rate being usage ÷ days elapsed, never fewer than 7 days (so one day
	// of spend is not a month's pace). Low and High are the same with the
	// lower and higher of that rate and the trailing 7 days' rate.
	Projected ledger.Money `json:"projected"`
	Low       ledger.Money `json:"projected_low"`
	High      ledger.Money `json:"projected_high"`
	// ReachDay is the day of the period's last month the budget is
	// reached at the projected pace, or for longer periods the day of the
	// period counted from its start (0: not this period, or already reached).
	ReachDay int `json:"reach_day,omitempty"`
	// Unconverted is set when some spend was in a currency without a rate:
	// it is not in Spent.
	Unconverted bool   `json:"unconverted,omitempty"`
	How         string `json:"how"` // the figures and the method, for the reader who asks
}

// minRateDays is the fewest days a run rate is taken over.
const minRateDays = 7

// committed reports whether an entry is a charge for its period rather
// than usage that accrues with time.
func committed(e ledger.Entry) bool {
	return e.Billing == ledger.Monthly || e.HoursUnknown || e.IsNonGPU() || e.IsRefund()
}

// Compute is b's state in month m at now from the team's entries of that
// month. Amounts in the other of CNY/USD are converted at fx (CNY per USD).
func Compute(b Budget, entries []ledger.Entry, m ledger.Month, now time.Time, loc *time.Location, fx float64) State {
	return ComputePeriod(b, entries, m, m.Start(loc), m.End(loc), m.String(), now, loc, fx)
}

// ComputePeriod is b's state over [from, to) (its label names it) at now
// from the team's entries of that period. See State for the forecast.
func ComputePeriod(b Budget, entries []ledger.Entry, first ledger.Month, from, to time.Time, label string, now time.Time, loc *time.Location, fx float64) State {
	st := State{Budget: b, Month: first, Period: label}
	var sum, fixed, trailing ledger.Totals
	weekAgo := now.Add(-minRateDays * 24 * time.Hour)
	for _, e := range entries {
		if !b.Covers(e) {
			continue
		}
		sum = add(sum, e)
		if committed(e) {
			fixed = add(fixed, e)
		} else if !e.At.Before(weekAgo) && e.At.Before(now) {
			trailing = add(trailing, e)
		}
	}
	conv := ledger.FX{To: b.Amount.Currency, Rates: map[knowledge.Currency]float64{}}
	if fx > 0 {
		switch b.Amount.Currency {
		case knowledge.CNY:
			conv.Rates[knowledge.USD] = fx
		case knowledge.USD:
			conv.Rates[knowledge.CNY] = 1 / fx
		}
	}
	convert := func(t ledger.Totals) ledger.Money {
		m, ok := conv.Convert(t.Amount)
		if !ok {
			st.Unconverted = true
			m = t.Amount.Money(b.Amount.Currency)
		}
		return m
	}
	spent, fixedM, trailM := convert(sum), convert(fixed), convert(trailing)
	st.Spent, st.Committed = spent, fixedM
	limit := b.Amount.Float()
	if limit <= 0 {
		return st
	}
	st.Share = spent.Float() / limit
	days := to.Sub(from).Hours() / 24
	elapsed := math.Min(math.Max(now.Sub(from).Hours()/24, 0), days)
	left := days - elapsed
	usage := spent.Float() - fixedM.Float()
	rate := usage / math.Max(elapsed, minRateDays)
	rateWeek := trailM.Float() / minRateDays
	lo, hi := math.Min(rate, rateWeek), math.Max(rate, rateWeek)
	cur := b.Amount.Currency
	st.Projected = ledger.MoneyFromFloat(spent.Float()+rate*left, cur)
	st.Low = ledger.MoneyFromFloat(spent.Float()+lo*left, cur)
	st.High = ledger.MoneyFromFloat(spent.Float()+hi*left, cur)
	if rate > 0 && spent.Float() < limit {
		if d := elapsed + (limit-spent.Float())/rate; d <= days {
			day := int(math.Ceil(d))
			if b.Period != Month { // counted from the period's start
				st.ReachDay = day
			} else {
				st.ReachDay = max(day, 1)
			}
		}
	}
	st.How = fmt.Sprintf("spent %s of %s (%.0f%%) in %.1f of %.0f days, of which %s committed (plans, invoices, non-GPU, refunds: counted once); "+
		"run rate %s a day (usage ÷ %.0f days, at least %d) → %s by the end of %s (range %s–%s with the trailing %d days' rate %s a day)",
		spent, b.Amount, st.Share*100, elapsed, days, fixedM, ledger.MoneyFromFloat(rate, cur), math.Max(elapsed, minRateDays), minRateDays,
		st.Projected, label, st.Low, st.High, minRateDays, ledger.MoneyFromFloat(rateWeek, cur))
	if fx > 0 && len(sum.Amount) > 1 {
		st.How += fmt.Sprintf(" (converted at %g CNY per USD)", fx)
	}
	return st
}

func add(t ledger.Totals, e ledger.Entry) ledger.Totals {
	if e.SupersededBy != "" || !e.Priced() {
		return t
	}
	if t.Amount == nil {
		t.Amount = ledger.Amounts{}
	}
	t.Amount[e.Amount.Currency] += e.Amount.Minor
	return t
}

// Thresholds are the shares of a budget that trigger an alert.
var Thresholds = []int{50, 80, 100}

// Forecast is the Kind of the forecast alert.
const Forecast = "forecast"

// Alert is one message due for a budget in a month.
type Alert struct {
	Project string       `json:"project"`
	Month   ledger.Month `json:"month"`
	Kind    string       `json:"kind"` // "50", "80", "100" or Forecast
	State   State        `json:"state"`
}

// ID names the alert for the sent and acknowledged marks:
// "project|2026-10|80" ("2026-Q4", "2026" for longer budgets).
func (a Alert) ID() string { return a.Project + "|" + a.label() + "|" + a.Kind }

func (a Alert) label() string {
	if a.State.Period != "" {
		return a.State.Period
	}
	return a.Month.String()
}

// Due lists the alerts s calls for: the highest threshold passed (lower
// ones are implied by it and marked sent with it, see Covers), and the
// forecast while the budget is not yet reached.
func Due(s State) []Alert {
	var out []Alert
	ts := s.Budget.thresholds()
	for i := len(ts) - 1; i >= 0; i-- {
		if s.Share*100 >= float64(ts[i]) {
			out = append(out, Alert{Project: s.Budget.Project, Month: s.Month, Kind: fmt.Sprint(ts[i]), State: s})
			break
		}
	}
	if s.ReachDay > 0 && s.Share < 1 {
		out = append(out, Alert{Project: s.Budget.Project, Month: s.Month, Kind: Forecast, State: s})
	}
	return out
}

// Covers lists the alert ids a posted alert makes redundant: a threshold
// alert covers the lower thresholds.
func (a Alert) Covers() []string {
	ids := []string{a.ID()}
	if a.Kind == Forecast {
		return ids
	}
	for _, t := range a.State.Budget.thresholds() {
		if fmt.Sprint(t) == a.Kind {
			break
		}
		ids = append(ids, a.Project+"|"+a.label()+"|"+fmt.Sprint(t))
	}
	return ids
}

// ParseAlerts reads custom thresholds: "50,80,100" (percent, ascending
// after reading, each 1–1000).
func ParseAlerts(s string) ([]int, error) {
	var out []int
	for _, p := range strings.Split(strings.TrimSuffix(strings.TrimSpace(s), "%"), ",") {
		p = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(p), "%"))
		var n int
		if _, err := fmt.Sscanf(p, "%d", &n); err != nil || fmt.Sprint(n) != p || n < 1 || n > 1000 {
			return nil, fmt.Errorf("%q is not a list of percentages like 50,80,100", s)
		}
		out = append(out, n)
	}
	sort.Ints(out)
	return out, nil
}

// Text is the alert in lang.
func (a Alert) Text(lang string) string {
	who, whoZH := name(a.Project, "en"), name(a.Project, "zh")
	s := a.State
	label := a.label()
	if a.Kind == Forecast {
		when, whenZH := "on the "+ordinal(s.ReachDay), fmt.Sprintf("在 %d 日", s.ReachDay)
		if s.Budget.Period != Month {
			when, whenZH = fmt.Sprintf("on day %d of %s", s.ReachDay, label), fmt.Sprintf("在 %s 的第 %d 天", label, s.ReachDay)
		}
		if lang == "zh" {
			return fmt.Sprintf("📈 预算预警：按目前的运行速率，%s 将%s用完 %s 的 %s 预算（已花 %s，%.0f%%；其中固定费用 %s；期末预计 %s，区间 %s–%s）。", whoZH, whenZH, label, s.Budget.Amount, s.Spent, s.Share*100, s.Committed, s.Projected, s.Low, s.High)
		}
		return fmt.Sprintf("📈 Budget forecast: at the run rate %s reaches its %s budget for %s %s (spent %s, %.0f%%, of which %s committed; %s projected by the end of %s, range %s–%s).", who, s.Budget.Amount, label, when, s.Spent, s.Share*100, s.Committed, s.Projected, label, s.Low, s.High)
	}
	if lang == "zh" {
		return fmt.Sprintf("⚠️ 预算提醒：%s 在 %s 已花 %s，达到 %s 预算的 %s%%（%.0f%%）。", whoZH, label, s.Spent, s.Budget.Amount, a.Kind, s.Share*100)
	}
	return fmt.Sprintf("⚠️ Budget alert: %s has spent %s in %s, past %s%% of its %s budget (%.0f%%).", who, s.Spent, label, a.Kind, s.Budget.Amount, s.Share*100)
}

func ordinal(d int) string {
	suffix := "th"
	switch {
	case d%100 >= 11 && d%100 <= 13:
	case d%10 == 1:
		suffix = "st"
	case d%10 == 2:
		suffix = "nd"
	case d%10 == 3:
		suffix = "rd"
	}
	return fmt.Sprintf("%d%s", d, suffix)
}

// ParseAmount reads a monthly budget: "¥100k/month", "100000", "$5,000 per
// month", "10万/月". The money itself is read by ledger.ParseAmount; this
// only drops the "per month" and applies a k/万 multiplier.
func ParseAmount(s string, def knowledge.Currency) (ledger.Money, error) {
	m, _, err := ParseBudget(s, def)
	return m, err
}

// ParseBudget reads a budget and its period: "¥100k/month" (Month),
// "¥300k/quarter", "30万/季度" (Quarter), "$1.2M/year", "120万/年" (Year).
func ParseBudget(s string, def knowledge.Currency) (ledger.Money, string, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	period := Month
	for _, p := range []struct {
		period string
		sufs   []string
	}{
		{Quarter, []string{"/quarter", "/qtr", "/q", "per quarter", "a quarter", "/季度", "/季", "每季度", "每季"}},
		{Year, []string{"/year", "/yr", "/y", "per year", "a year", "/年", "每年"}},
		{Month, []string{"/month", "/mo", "per month", "a month", "/月", "每月", "/m"}},
	} {
		for _, suf := range p.sufs {
			if strings.HasSuffix(t, suf) {
				t, period = strings.TrimSpace(strings.TrimSuffix(t, suf)), p.period
			}
		}
	}
	m, err := parseMoney(t, s, def)
	return m, period, err
}

func parseMoney(t, s string, def knowledge.Currency) (ledger.Money, error) {
	mult := int64(1)
multipliers:
	for _, x := range []struct {
		suf string
		n   int64
	}{{"k", 1000}, {"千", 1000}, {"w", 10000}, {"万", 10000}} {
		for _, cur := range []string{"", "元", "块"} {
			if strings.HasSuffix(t, x.suf+cur) {
				t, mult = strings.TrimSuffix(t, x.suf+cur)+cur, x.n
				break multipliers
			}
		}
	}
	m, err := ledger.ParseAmount(t, def)
	if err != nil {
		return ledger.Money{}, err
	}
	m.Minor *= mult
	if m.Minor <= 0 {
		return ledger.Money{}, fmt.Errorf("%q is not more than zero", s)
	}
	return m, nil
}

// States are the team's budgets as a budget answer shows them.
type States []State

// BudgetStatus is what a yes/no about the budgets answers: the first
// budget's spend, whether any budget is spent past it (over), and whether
// any is on course to be by the period's end (projected).
func (ss States) BudgetStatus() (spent float64, currency string, over, projected, ok bool) {
	if len(ss) == 0 {
		return 0, "", false, false, false
	}
	for _, s := range ss {
		over = over || s.Share > 1
		projected = projected || s.Projected.Currency == s.Budget.Amount.Currency && s.Projected.Minor > s.Budget.Amount.Minor
	}
	return ss[0].Spent.Float(), string(ss[0].Spent.Currency), over, over || projected, true
}

// BudgetProjection is where the first budget's period lands at the
// current rate (fixed costs + run rate), in its currency; ok is false
// with no budget or a projection in another currency.
func (ss States) BudgetProjection() (projected float64, currency string, ok bool) {
	if len(ss) == 0 || ss[0].Projected.Currency != ss[0].Spent.Currency {
		return 0, "", false
	}
	return ss[0].Projected.Float(), string(ss[0].Projected.Currency), true
}

// teamStem is a team's name without the word for team around it ("nlp组",
// "vision-team", "团队 nlp" → nlp), lower-cased.
func teamStem(name string) string {
	n := strings.ToLower(strings.TrimSpace(name))
	for _, w := range []string{"团队", "组", "team", "-", " ", "_"} {
		n = strings.TrimSuffix(n, w)
	}
	for _, w := range []string{"团队", "team", "-", " ", "_"} {
		n = strings.TrimPrefix(n, w)
	}
	return n
}
