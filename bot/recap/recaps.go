package recap

import (
	"context"
	"fmt"
	"time"

	"github.com/robfig/cron/v3"

	"github.com/gpubot/gpubot/bot/ledger"
	"github.com/gpubot/gpubot/bot/schedule"
	"github.com/gpubot/gpubot/bot/slackpost"
	"github.com/gpubot/gpubot/bot/subscribe"
	"github.com/gpubot/gpubot/knowledge"
)

// offerSource is where today's offers come from (the live catalogue).
type offerSource interface {
	Offers(ctx context.Context) ([]knowledge.Offer, error)
}

// Recaps builds recaps from the ledger and the catalogue. It is safe for
// concurrent use.
type Recaps struct {
	ledger *ledger.Ledger
	prices offerSource
	opt    Options
	// budgets sets the team's budgets against a period's spend (see
	// UseBudgetLines).
	budgets func(ctx context.Context, team, lang string, p ledger.Period) []string
}

// UseBudgetLines makes the recap list budget vs actual: f returns one
// sentence per budget of the period (budget.Alerts.VersusFunc).
func (r *Recaps) UseBudgetLines(f func(ctx context.Context, team, lang string, p ledger.Period) []string) {
	r.budgets = f
}

// New returns Recaps over l; prices gives today's offers (nil: the findings
// that need the catalogue use opt.KB's shipped offers). Months are read in
// the ledger's time zone.
func New(l *ledger.Ledger, prices offerSource, opt Options) *Recaps {
	opt.Location = l.Location()
	return &Recaps{ledger: l, prices: prices, opt: opt.withDefaults()}
}

// Build is team's recap of month m, in lang.
func (r *Recaps) Build(ctx context.Context, team string, m ledger.Month, lang string, now time.Time) (*Recap, error) {
	in := Input{Team: team, Month: m, Lang: lang, Now: now}
	months := max(r.opt.Months, 2)
	mo := m
	for range months {
		es, err := r.ledger.List(ctx, team, mo, "")
		if err != nil {
			return nil, fmt.Errorf("recap %s: %w", m, err)
		}
		in.History = append([]MonthEntries{{Month: mo, Entries: es}}, in.History...)
		mo = mo.Prev()
	}
	switch {
	case r.prices != nil:
		offers, err := r.prices.Offers(ctx)
		if err != nil {
			return nil, fmt.Errorf("recap %s: %w", m, err)
		}
		in.Offers = offers
	case r.opt.KB != nil:
		in.Offers = r.opt.KB.Offers
	}
	loc := r.opt.withDefaults().Location
	cs, err := r.ledger.CommitmentList(ctx, team, m.End(loc).Add(-time.Second)) // with 包月 plans and used/idle hours
	if err != nil {
		return nil, fmt.Errorf("recap %s: %w", m, err)
	}
	in.Commitments = cs
	if r.budgets != nil {
		in.Budgets = r.budgets(ctx, team, lang, ledger.MonthPeriod(m))
	}
	opt := r.opt
	if opt.Profiles != nil {
		p, err := opt.Profiles.Get(ctx, team)
		if err != nil {
			return nil, fmt.Errorf("recap %s: %w", m, err)
		}
		in.Platforms = p.Platforms
		if p.FX > 0 {
			opt.FX = p.FX
		}
	}
	return Compose(in, opt), nil
}

// Delivery is the recap for the scheduler: on sched (the 1st of the
// month), the month before.
func (r *Recaps) Delivery(sched cron.Schedule) schedule.Delivery {
	return schedule.Delivery{Name: "recap", Topic: subscribe.Recap, Schedule: sched, Period: schedule.PrevMonthPeriod(r.opt.Location),
		Compose: r.Compose}
}

// Compose builds one channel's recap post for the scheduler.
func (r *Recaps) Compose(ctx context.Context, s schedule.Slot) (*schedule.Post, error) {
	m, err := ledger.ParseMonth(s.Period)
	if err != nil {
		return nil, err
	}
	rc, err := r.Build(ctx, s.Sub.Team, m, s.Sub.Lang, s.Now)
	if err != nil {
		return nil, err
	}
	return PostOf(rc), nil
}

// PostOf is a recap as the scheduler sends it: the message and the chart.
func PostOf(rc *Recap) *schedule.Post {
	text, blocks := rc.Render()
	p := &schedule.Post{Text: text, Blocks: blocks}
	if rc.Chart != nil {
		p.File = &slackpost.File{Name: rc.Chart.Name, Title: rc.Chart.Title, AltText: rc.Chart.Title, Data: rc.Chart.PNG}
	}
	return p
}
