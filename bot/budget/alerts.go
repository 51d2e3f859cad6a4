package budget

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/robfig/cron/v3"
	"github.com/slack-go/slack"

	"github.com/gpubot/gpubot/bot/ledger"
	"github.com/gpubot/gpubot/bot/present"
	"github.com/gpubot/gpubot/bot/profile"
	"github.com/gpubot/gpubot/bot/schedule"
	"github.com/gpubot/gpubot/bot/subscribe"
	"github.com/gpubot/gpubot/knowledge"
)

// AckAction is the action id of an alert's Acknowledge button; its value is
// the alert's ID.
const AckAction = "gpubot.budget.ack"

// Alerts turns budget states into scheduled posts.
type Alerts struct {
	st       *Store
	ledger   *ledger.Ledger
	profiles *profile.Store // nil: every recap channel of the team may get alerts
	fx       float64
}

// NewAlerts returns the alert builder; fx is CNY per USD (the profile's
// FX, when set, wins).
func NewAlerts(st *Store, l *ledger.Ledger, profiles *profile.Store, fx float64) *Alerts {
	return &Alerts{st: st, ledger: l, profiles: profiles, fx: fx}
}

// Delivery checks budgets on sched (every few minutes) and posts what is
// due to the team's channel: the profile's channel when set (subscribed to
// anything or not), else each channel subscribed to the recap (the first
// to be served gets it; the sent marks keep the others quiet). Every slot
// is its own period, so the scheduler's exactly-once holds per check; the
// sent marks make each alert once per month.
func (a *Alerts) Delivery(sched cron.Schedule, loc *time.Location) schedule.Delivery {
	return schedule.Delivery{Name: "budget", Topic: subscribe.Recap, Schedule: sched,
		Period:  func(slot time.Time) string { return slot.In(loc).Format("2006-01-02T15:04") },
		Compose: a.Compose, Posted: a.Posted, Targets: a.Targets}
}

// Targets is where each team's alerts go: the one channel its profile
// names, or, without one, its recap subscribers. A team with budgets but
// no recap subscription is reached through its profile channel alone.
func (a *Alerts) Targets(ctx context.Context, subs []subscribe.Sub) ([]subscribe.Sub, error) {
	byTeam := map[string][]subscribe.Sub{}
	var order []string
	for _, s := range subs {
		if _, ok := byTeam[s.Team]; !ok {
			order = append(order, s.Team)
		}
		byTeam[s.Team] = append(byTeam[s.Team], s)
	}
	teams, err := a.st.Teams(ctx)
	if err != nil {
		return nil, err
	}
	for _, t := range teams {
		if _, ok := byTeam[t]; !ok {
			order = append(order, t)
			byTeam[t] = nil
		}
	}
	var out []subscribe.Sub
	for _, team := range order {
		var p profile.Profile
		if a.profiles != nil {
			if p, err = a.profiles.Get(ctx, team); err != nil {
				return nil, err
			}
		}
		if p.RecapChannel == "" {
			out = append(out, byTeam[team]...)
			continue
		}
		out = append(out, profileTarget(p, byTeam[team]))
	}
	return out, nil
}

// profileTarget is the profile channel as a delivery target: its own recap
// subscription when it has one, else a target in the language of the
// team's other subscriptions (or of its currency: CNY is Chinese).
func profileTarget(p profile.Profile, subs []subscribe.Sub) subscribe.Sub {
	t := subscribe.Sub{Team: p.Team, Channel: p.RecapChannel, Topic: subscribe.Recap, Lang: "en"}
	if p.Currency == knowledge.CNY {
		t.Lang = "zh"
	}
	for i, s := range subs {
		if s.Channel == p.RecapChannel {
			return s
		}
		if i == 0 && s.Lang != "" {
			t.Lang = s.Lang
		}
	}
	return t
}

func pendingField(s schedule.Slot) string { return s.Sub.Channel + "|" + s.Period }

// Compose builds a channel's alert post, or nil when nothing new is due.
func (a *Alerts) Compose(ctx context.Context, s schedule.Slot) (*schedule.Post, error) {
	team := s.Sub.Team
	fx := a.fx
	if a.profiles != nil {
		p, err := a.profiles.Get(ctx, team)
		if err != nil {
			return nil, err
		}
		if p.RecapChannel != "" && p.RecapChannel != s.Sub.Channel {
			return nil, nil
		}
		if p.FX > 0 {
			fx = p.FX
		}
	}
	due, err := a.due(ctx, team, s.Now, fx)
	if err != nil || len(due) == 0 {
		return nil, err
	}
	raw, err := json.Marshal(due)
	if err != nil {
		return nil, err
	}
	if err := a.st.rdb.HSet(ctx, prefix(team)+"pending", pendingField(s), raw).Err(); err != nil {
		return nil, fmt.Errorf("record budget alerts: %w", err)
	}
	return post(due, s.Sub.Lang), nil
}

// due is every alert the team's budgets call for now that was not sent.
func (a *Alerts) due(ctx context.Context, team string, now time.Time, fx float64) ([]Alert, error) {
	bs, err := a.st.List(ctx, team)
	if err != nil || len(bs) == 0 {
		return nil, err
	}
	var out []Alert
	for _, b := range bs {
		st, err := a.State(ctx, b, now, fx)
		if err != nil {
			return nil, err
		}
		for _, al := range Due(st) {
			sent, err := a.st.rdb.HExists(ctx, prefix(team)+"sent", al.ID()).Result()
			if err != nil {
				return nil, fmt.Errorf("read budget alerts sent: %w", err)
			}
			if !sent {
				out = append(out, al)
			}
		}
	}
	return out, nil
}

// State is how budget b stands at now, over its period's entries.
func (a *Alerts) State(ctx context.Context, b Budget, now time.Time, fx float64) (State, error) {
	loc := a.ledger.Location()
	first, from, to, label := b.PeriodOf(now, loc)
	es, err := a.ledger.Between(ctx, b.Team, from, to)
	if err != nil {
		return State{}, err
	}
	return ComputePeriod(b, es, first, from, to, label, now, loc, fx), nil
}

// teamFX is the CNY-per-USD rate budgets of team are converted at: the
// team's /gpu settings fx when set, else the bot's. Every budget figure —
// status, alerts, budget vs actual — uses it, so one month has one total.
func (a *Alerts) teamFX(ctx context.Context, team string) float64 {
	if a.profiles != nil {
		if p, err := a.profiles.Get(ctx, team); err == nil && p.FX > 0 {
			return p.FX
		}
	}
	return a.fx
}

// Notes are the alerts due for team at now that its channel has not been
// sent yet, as sentences in lang: what the reply to a ledger write says
// when the write crossed a threshold (the channel post still follows).
func (a *Alerts) Notes(ctx context.Context, team string, now time.Time, lang string) ([]string, error) {
	due, err := a.due(ctx, team, now, a.teamFX(ctx, team))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, al := range due {
		out = append(out, al.Text(lang))
	}
	return out, nil
}

// Posted marks the alerts of a delivered post as sent.
func (a *Alerts) Posted(ctx context.Context, s schedule.Slot) error {
	key := prefix(s.Sub.Team) + "pending"
	raw, err := a.st.rdb.HGet(ctx, key, pendingField(s)).Result()
	if errors.Is(err, redis.Nil) {
		return nil
	}
	if err != nil {
		return err
	}
	var due []Alert
	if err := json.Unmarshal([]byte(raw), &due); err != nil {
		return err
	}
	_, err = a.st.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		for _, al := range due {
			for _, id := range al.Covers() {
				p.HSetNX(ctx, prefix(s.Sub.Team)+"sent", id, s.Now.Unix())
			}
		}
		p.HDel(ctx, key, pendingField(s))
		return nil
	})
	if err != nil {
		return fmt.Errorf("mark budget alerts sent: %w", err)
	}
	return a.st.saved(ctx)
}

func post(due []Alert, lang string) *schedule.Post {
	var lines []string
	var blocks []slack.Block
	for _, al := range due {
		t := al.Text(lang)
		lines = append(lines, t)
		btn := slack.NewButtonBlockElement(AckAction, al.ID(), slack.NewTextBlockObject(slack.PlainTextType, present.Tr(lang, "Acknowledge", "知道了"), false, false))
		blocks = append(blocks, slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, present.EscapeControl(t), false, false), nil, slack.NewAccessory(btn)))
	}
	return &schedule.Post{Text: strings.Join(lines, "\n"), Blocks: blocks}
}

// Acknowledge records that user acknowledged alert id (the button's value),
// for the transport's click handler.
func (a *Alerts) Acknowledge(ctx context.Context, team, id, user string) error {
	return a.st.Ack(ctx, team, id, user)
}

// VersusFunc returns what spend reports call for budget vs actual (see
// bot.Spend.UseBudgetLines): for each budget whose period is as long as
// the report's (monthly budgets in a month report, quarterly in a
// quarter's, yearly in a year's), one sentence in lang: the budget, the
// spend in the report's period, the share and what is left, and while
// the period runs the forecast with its range and method.
func (a *Alerts) VersusFunc(now func() time.Time) func(ctx context.Context, team, lang string, p ledger.Period) []string {
	return func(ctx context.Context, team, lang string, p ledger.Period) []string {
		lines, err := a.Versus(ctx, team, now(), lang, p)
		if err != nil {
			return nil // the report stands without them
		}
		return lines
	}
}

// Versus is VersusFunc's sentences at now.
func (a *Alerts) Versus(ctx context.Context, team string, now time.Time, lang string, p ledger.Period) ([]string, error) {
	bs, err := a.st.List(ctx, team)
	if err != nil || len(bs) == 0 {
		return nil, err
	}
	fx := a.teamFX(ctx, team)
	loc := a.ledger.Location()
	from, to := p.Start(loc), p.End(loc)
	var es []ledger.Entry
	read := false
	var out []string
	for _, b := range bs {
		if map[string]int{Month: 1, Quarter: 3, Year: 12}[b.Period] != p.Months {
			continue
		}
		if !read {
			if es, err = a.ledger.Between(ctx, team, from, to); err != nil {
				return nil, err
			}
			read = true
		}
		at := now
		if at.After(to) {
			at = to
		}
		out = append(out, VersusText(ComputePeriod(b, es, p.First, from, to, p.Label, at, loc, fx), now.Before(to), lang))
	}
	return out, nil
}

// VersusText is one budget against its actual spend; running adds the
// forecast (the period is not over).
func VersusText(s State, running bool, lang string) string {
	left := ledger.Money{Minor: s.Budget.Amount.Minor - s.Spent.Minor, Currency: s.Budget.Amount.Currency}
	en := fmt.Sprintf("%s: %s budget, spent %s (%.0f%%), ", name(s.Budget.Project, "en"), s.Budget.Amount, s.Spent, s.Share*100)
	zh := fmt.Sprintf("%s：预算 %s，已花 %s（%.0f%%），", name(s.Budget.Project, "zh"), s.Budget.Amount, s.Spent, s.Share*100)
	if left.Minor >= 0 {
		en += fmt.Sprintf("%s left", left)
		zh += fmt.Sprintf("还剩 %s", left)
	} else {
		over := ledger.Money{Minor: -left.Minor, Currency: left.Currency}
		en += fmt.Sprintf("over by %s", over)
		zh += fmt.Sprintf("超出 %s", over)
	}
	if running {
		en += fmt.Sprintf("; forecast %s by the end of %s (range %s–%s; committed %s + run rate over at least %d days)", s.Projected, s.Period, s.Low, s.High, s.Committed, minRateDays)
		zh += fmt.Sprintf("；预计 %s 期末 %s（区间 %s–%s；固定费用 %s + 至少 %d 天的运行速率）", s.Period, s.Projected, s.Low, s.High, s.Committed, minRateDays)
	}
	return present.Tr(lang, en, zh)
}
