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

// Budget is a monthly spend limit.
type Budget struct {
	Team    string       `json:"team"`
	Project string       `json:"project"` // ledger project (folded), or Team
	Amount  ledger.Money `json:"amount"`  // per calendar month
	SetBy   string       `json:"set_by"`
	SetAt   time.Time    `json:"set_at"`
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

// State is how a budget stands in a month at a moment.
type State struct {
	Budget    Budget       `json:"budget"`
	Month     ledger.Month `json:"month"`
	Spent     ledger.Money `json:"spent"` // in the budget's currency; refunds netted, superseded entries left out
	Share     float64      `json:"share"` // Spent ÷ budget
	Projected ledger.Money `json:"projected"`
	// ReachDay is the day of the month the budget is reached at this
	// month's pace (0: not this month, or already reached).
	ReachDay int `json:"reach_day,omitempty"`
	// Unconverted is set when some spend was in a currency without a rate:
	// it is not in Spent.
	Unconverted bool   `json:"unconverted,omitempty"`
	How         string `json:"how"` // the figures, for the reader who asks
}

// Compute is b's state in month m at now from the team's entries of that
// month. Amounts in the other of CNY/USD are converted at fx (CNY per USD).
// The pace is the spend so far over the days elapsed (at least one), and
// the projection that pace over the whole month.
func Compute(b Budget, entries []ledger.Entry, m ledger.Month, now time.Time, loc *time.Location, fx float64) State {
	st := State{Budget: b, Month: m}
	var sum ledger.Totals
	for _, e := range entries {
		if b.Project == Team || e.Project == b.Project {
			sum = add(sum, e)
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
	spent, ok := conv.Convert(sum.Amount)
	if !ok {
		st.Unconverted = true
		spent = sum.Amount.Money(b.Amount.Currency)
	}
	st.Spent = spent
	limit := b.Amount.Float()
	if limit <= 0 {
		return st
	}
	st.Share = spent.Float() / limit
	start, end := m.Start(loc), m.End(loc)
	days := end.Sub(start).Hours() / 24
	elapsed := math.Min(math.Max(now.Sub(start).Hours()/24, 1), days)
	pace := spent.Float() / elapsed
	st.Projected = ledger.MoneyFromFloat(pace*days, b.Amount.Currency)
	if pace > 0 && spent.Float() < limit {
		if d := int(math.Ceil(limit / pace)); d <= int(math.Round(days)) {
			st.ReachDay = d
		}
	}
	st.How = fmt.Sprintf("spent %s of %s (%.0f%%) in %.1f of %.0f days; pace %s a day → %s by month end",
		spent, b.Amount, st.Share*100, elapsed, days, ledger.MoneyFromFloat(pace, b.Amount.Currency), st.Projected)
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

// ID names the alert for the sent and acknowledged marks.
func (a Alert) ID() string { return a.Project + "|" + a.Month.String() + "|" + a.Kind }

// Due lists the alerts s calls for: the highest threshold passed (lower
// ones are implied by it and marked sent with it, see Covers), and the
// forecast while the budget is not yet reached.
func Due(s State) []Alert {
	var out []Alert
	for i := len(Thresholds) - 1; i >= 0; i-- {
		if s.Share*100 >= float64(Thresholds[i]) {
			out = append(out, Alert{Project: s.Budget.Project, Month: s.Month, Kind: fmt.Sprint(Thresholds[i]), State: s})
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
	for _, t := range Thresholds {
		if fmt.Sprint(t) == a.Kind {
			break
		}
		ids = append(ids, a.Project+"|"+a.Month.String()+"|"+fmt.Sprint(t))
	}
	return ids
}

// Text is the alert in lang.
func (a Alert) Text(lang string) string {
	who := a.Project
	whoZH := "项目 " + a.Project
	if a.Project == Team {
		who, whoZH = "the team", "团队"
	}
	s := a.State
	if a.Kind == Forecast {
		if lang == "zh" {
			return fmt.Sprintf("📈 预算预警：按目前速度，%s 将在 %d 日用完 %s 的 %s 月预算（已花 %s，%.0f%%；月底预计 %s）。", whoZH, s.ReachDay, a.Month, s.Budget.Amount, s.Spent, s.Share*100, s.Projected)
		}
		return fmt.Sprintf("📈 Budget forecast: at this pace %s reaches its %s budget for %s on the %s (spent %s, %.0f%%; %s projected by month end).", who, s.Budget.Amount, a.Month, ordinal(s.ReachDay), s.Spent, s.Share*100, s.Projected)
	}
	if lang == "zh" {
		return fmt.Sprintf("⚠️ 预算提醒：%s 在 %s 已花 %s，达到 %s 月预算的 %s%%（%.0f%%）。", whoZH, a.Month, s.Spent, s.Budget.Amount, a.Kind, s.Share*100)
	}
	return fmt.Sprintf("⚠️ Budget alert: %s has spent %s in %s, past %s%% of its %s budget (%.0f%%).", who, s.Spent, a.Month, a.Kind, s.Budget.Amount, s.Share*100)
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
	t := strings.ToLower(strings.TrimSpace(s))
	for _, suf := range []string{"/month", "/mo", "per month", "a month", "/月", "每月", "/m"} {
		t = strings.TrimSpace(strings.TrimSuffix(t, suf))
	}
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
