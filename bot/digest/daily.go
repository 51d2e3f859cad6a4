package digest

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/robfig/cron/v3"

	"github.com/gpubot/gpubot/bot/schedule"
	"github.com/gpubot/gpubot/bot/slackpost"
	"github.com/gpubot/gpubot/bot/subscribe"
	"github.com/gpubot/gpubot/knowledge"
	"github.com/gpubot/gpubot/knowledge/catalog"
)

// Baseline names under catalog.SaveBaseline.
const (
	startBaseline = "daily:start"
	dayPrefix     = "daily:"
)

func dayBaseline(period string) string { return dayPrefix + period }

// DailyOptions configure Daily besides the post's Options.
type DailyOptions struct {
	Prefix  string                      // key prefix of the baseline index; "gpubot:"
	Keep    time.Duration               // day baselines kept; 14 days
	Persist func(context.Context) error // embedded mode: snapshot after a change
}

// Daily is the daily post's I/O: it refreshes the catalogue (keeping the
// comparison point of the very first post), freezes each day's catalogue,
// finds the baseline a channel compares with, and builds its post. It is
// safe for concurrent use.
type Daily struct {
	cat     *catalog.Catalog
	rdb     redis.UniversalClient
	opt     Options
	days    string
	keep    time.Duration
	persist func(context.Context) error
}

// NewDaily returns the daily post over cat, whose Redis is rdb.
func NewDaily(cat *catalog.Catalog, rdb redis.UniversalClient, opt Options, dopt DailyOptions) *Daily {
	if dopt.Prefix == "" {
		dopt.Prefix = "gpubot:"
	}
	if dopt.Keep <= 0 {
		dopt.Keep = 14 * 24 * time.Hour
	}
	if dopt.Persist == nil {
		dopt.Persist = func(context.Context) error { return nil }
	}
	return &Daily{cat: cat, rdb: rdb, opt: opt.withDefaults(), days: dopt.Prefix + "digest:days", keep: dopt.Keep, persist: dopt.Persist}
}

// Delivery is the daily post for the scheduler, on sched.
func (d *Daily) Delivery(sched cron.Schedule) schedule.Delivery {
	return schedule.Delivery{Name: "daily", Topic: subscribe.Prices, Schedule: sched, Period: schedule.DayPeriod(d.opt.Location),
		Prepare: d.Prepare, Compose: d.Compose}
}

// Refresh runs every catalogue source (catalog.Catalog.Refresh). Before
// the first daily post there is no baseline to compare with, so the first
// refresh that changes a stored catalogue keeps the catalogue it replaced
// as the "start" baseline: `bot preview daily` can show a change from the
// second refresh on.
func (d *Daily) Refresh(ctx context.Context, now time.Time) (*catalog.Report, error) {
	return d.refresh(ctx, now, func() (*catalog.Report, error) { return d.cat.Refresh(ctx, now) })
}

// RefreshOnly refreshes the named sources (the team file after an edit),
// keeping the start baseline as Refresh does.
func (d *Daily) RefreshOnly(ctx context.Context, now time.Time, names ...string) (*catalog.Report, error) {
	return d.refresh(ctx, now, func() (*catalog.Report, error) { return d.cat.RefreshOnly(ctx, now, names...) })
}

func (d *Daily) refresh(ctx context.Context, now time.Time, run func() (*catalog.Report, error)) (*catalog.Report, error) {
	prev, err := d.cat.Current(ctx)
	if err != nil {
		return nil, err
	}
	rep, err := run()
	if err != nil {
		return nil, err
	}
	if prev.Version > 0 && rep.Version != prev.Version && !rep.Diff.Empty() {
		if _, ok, err := d.latest(ctx, ""); err != nil {
			return rep, err
		} else if !ok {
			if err := d.cat.SaveBaseline(ctx, startBaseline, prev.Offers, viewTime(prev, now), 0); err != nil {
				return rep, err
			}
		}
	}
	if err := d.persist(ctx); err != nil {
		return rep, fmt.Errorf("persist catalogue: %w", err)
	}
	return rep, nil
}

// viewTime is when a view was last confirmed: its newest source success.
func viewTime(v *catalog.View, def time.Time) time.Time {
	var t time.Time
	for _, s := range v.Sources {
		if s.LastSuccess.After(t) {
			t = s.LastSuccess
		}
	}
	if t.IsZero() {
		return def
	}
	return t
}

// Prepare freezes the catalogue of the day period (once; later calls find
// it), so every channel and every catch-up of the day posts the same
// numbers and the next day compares with them. Day baselines older than
// DailyOptions.Keep are dropped.
func (d *Daily) Prepare(ctx context.Context, slot time.Time, period string) error {
	// The index says whether the day is frozen: one ZSCORE per tick, not a
	// whole catalogue read.
	if err := d.rdb.ZScore(ctx, d.days, period).Err(); err == nil {
		return nil
	} else if !errors.Is(err, redis.Nil) {
		return fmt.Errorf("read day baselines: %w", err)
	}
	v, err := d.cat.Current(ctx)
	if err != nil {
		return err
	}
	at := slot
	if now := viewTime(v, slot); now.After(at) {
		at = now
	}
	if err := d.cat.SaveBaseline(ctx, dayBaseline(period), v.Offers, at, 0); err != nil {
		return err
	}
	if err := d.rdb.ZAdd(ctx, d.days, redis.Z{Score: float64(slot.UnixMilli()), Member: period}).Err(); err != nil {
		return fmt.Errorf("index day baseline: %w", err)
	}
	old, err := d.rdb.ZRangeByScore(ctx, d.days, &redis.ZRangeBy{Min: "-inf", Max: "(" + strconv.FormatInt(slot.Add(-d.keep).UnixMilli(), 10)}).Result()
	if err != nil {
		return fmt.Errorf("read day baselines: %w", err)
	}
	for _, p := range old {
		// A baseline that expires at once is gone.
		if err := d.cat.SaveBaseline(ctx, dayBaseline(p), nil, slot, time.Millisecond); err != nil {
			return err
		}
		d.rdb.ZRem(ctx, d.days, p)
	}
	return d.persist(ctx)
}

// latest is the newest day baseline not after period ("" for any), else
// the start baseline.
func (d *Daily) latest(ctx context.Context, period string) (string, bool, error) {
	days, err := d.rdb.ZRevRange(ctx, d.days, 0, -1).Result()
	if err != nil {
		return "", false, fmt.Errorf("read day baselines: %w", err)
	}
	for _, p := range days {
		if period == "" || p <= period {
			return dayBaseline(p), true, nil // the index and the baselines are dropped together
		}
	}
	if _, _, ok, err := d.cat.Baseline(ctx, startBaseline); err != nil || !ok {
		return "", false, err
	}
	return startBaseline, true, nil
}

// prevFor is the baseline a channel's post for period compares with: the
// day it last got a post, else the newest day before period, else the
// start.
func (d *Daily) prevFor(ctx context.Context, period, lastPosted string) (string, bool, error) {
	if lastPosted != "" && lastPosted != period {
		if _, _, ok, err := d.cat.Baseline(ctx, dayBaseline(lastPosted)); err != nil {
			return "", false, err
		} else if ok {
			return dayBaseline(lastPosted), true, nil
		}
	}
	day, err := time.Parse(time.DateOnly, period)
	if err != nil {
		return "", false, fmt.Errorf("daily period %q: %w", period, err)
	}
	return d.latest(ctx, day.AddDate(0, 0, -1).Format(time.DateOnly))
}

// FilterOf is what a subscription asks of the post.
func FilterOf(s subscribe.Sub) Filter {
	return Filter{GPUs: s.GPUs, Threshold: s.Threshold, Lang: s.Lang}
}

// Compose builds one channel's post for the scheduler: the day's frozen
// catalogue against the channel's baseline. A quiet day is one line, or
// nothing for a quiet subscription.
func (d *Daily) Compose(ctx context.Context, s schedule.Slot) (*schedule.Post, error) {
	if err := d.Prepare(ctx, s.At, s.Period); err != nil {
		return nil, err
	}
	cur, curAt, ok, err := d.cat.Baseline(ctx, dayBaseline(s.Period))
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("day baseline %s missing after Prepare", s.Period)
	}
	prevName, hasPrev, err := d.prevFor(ctx, s.Period, s.LastPosted)
	if err != nil {
		return nil, err
	}
	dg, err := d.build(ctx, prevName, hasPrev, cur, curAt, s.Now, FilterOf(s.Sub))
	if err != nil {
		return nil, err
	}
	if dg.Quiet() && s.Sub.Quiet {
		return nil, nil
	}
	return PostOf(dg), nil
}

// PostOf is a digest as the scheduler sends it: the message and, unless
// the day was quiet, the chart.
func PostOf(dg *Digest) *schedule.Post {
	text, blocks := dg.Render()
	p := &schedule.Post{Text: text, Blocks: blocks}
	if !dg.Quiet() && dg.Chart != nil {
		p.File = &slackpost.File{Name: dg.Chart.Name, Title: dg.Chart.Title, AltText: dg.Chart.Title, Data: dg.Chart.PNG}
	}
	return p
}

// Preview is the digest a channel with filter f would get if it were
// posted now: the live catalogue against the newest day baseline (or the
// start one). It changes nothing.
func (d *Daily) Preview(ctx context.Context, now time.Time, f Filter) (*Digest, error) {
	v, err := d.cat.Current(ctx)
	if err != nil {
		return nil, err
	}
	prevName, ok, err := d.latest(ctx, "")
	if err != nil {
		return nil, err
	}
	return d.build(ctx, prevName, ok, v.Offers, now, now, f)
}

// Since is what `bot catalog diff` compares: the newest day baseline (or
// the start one) against the live catalogue. ok is false when there is no
// baseline yet.
func (d *Daily) Since(ctx context.Context, th catalog.Thresholds) (name string, at time.Time, diff catalog.DiffResult, ok bool, err error) {
	v, err := d.cat.Current(ctx)
	if err != nil {
		return "", time.Time{}, diff, false, err
	}
	name, ok, err = d.latest(ctx, "")
	if err != nil || !ok {
		return "", time.Time{}, diff, false, err
	}
	prev, at, _, err := d.cat.Baseline(ctx, name)
	if err != nil {
		return "", time.Time{}, diff, false, err
	}
	return name, at, catalog.Diff(prev, v.Offers, th), true, nil
}

func (d *Daily) build(ctx context.Context, prevName string, hasPrev bool, cur []knowledge.Offer, curAt, now time.Time, f Filter) (*Digest, error) {
	in := Input{Cur: cur, CurAt: curAt, Now: now, Filter: f, HasPrev: hasPrev}
	if hasPrev {
		prev, at, ok, err := d.cat.Baseline(ctx, prevName)
		if err != nil {
			return nil, err
		}
		in.Prev, in.PrevAt, in.HasPrev = prev, at, ok
	}
	live, err := d.cat.Current(ctx)
	if err != nil {
		return nil, err
	}
	in.Sources = live.Sources
	in.SourceData = live.NewestObserved()
	if in.HasPrev {
		removed, err := d.cat.Removed(ctx, in.PrevAt)
		if err != nil {
			return nil, err
		}
		in.Removed = removed
		if in.LastSeen, err = d.lastSeen(ctx, in.Prev, cur, in.PrevAt, f); err != nil {
			return nil, err
		}
	}
	window := time.Duration(d.opt.TrendDays) * 24 * time.Hour
	if in.HasPrev {
		// Lower than anything recorded in the window before the last post.
		lows, err := d.cat.NewLows(ctx, &catalog.View{Offers: cur}, in.PrevAt, window)
		if err != nil {
			return nil, err
		}
		in.Lows = lows
	}
	// The chart is drawn from the day baselines and the catalogue posted
	// now, each by the "Cheapest now" rule, so it plots exactly the figures
	// the text gives (the refresh's own cheapest series counts spot and
	// market ranges differently).
	ss, err := d.baselineSeries(ctx, now.Add(-window), cards(f, d.opt))
	if err != nil {
		return nil, err
	}
	in.Series = mergeSeries(ss, seriesOf(cur, curAt, cards(f, d.opt), d.opt.FX))
	return Compose(in, d.opt), nil
}

// baselineSeries is the cheapest offer per card on each day with a day
// baseline since from, and in the start baseline.
func (d *Daily) baselineSeries(ctx context.Context, from time.Time, gpus []string) ([]catalog.Series, error) {
	days, err := d.rdb.ZRangeByScore(ctx, d.days, &redis.ZRangeBy{Min: strconv.FormatInt(from.UnixMilli(), 10), Max: "+inf"}).Result()
	if err != nil {
		return nil, fmt.Errorf("read day baselines: %w", err)
	}
	names := append([]string{startBaseline}, make([]string, 0, len(days))...)
	for _, p := range days {
		names = append(names, dayBaseline(p))
	}
	var out []catalog.Series
	for _, n := range names {
		offers, at, ok, err := d.cat.Baseline(ctx, n)
		if err != nil {
			return nil, err
		}
		if ok && !at.Before(from) {
			out = mergeSeries(out, seriesOf(offers, at, gpus, d.opt.FX))
		}
	}
	return out, nil
}

// lastSeen finds, for each offer in cur but not prev, its last history
// point in the trend window before prevAt: the price it had before it went
// missing.
func (d *Daily) lastSeen(ctx context.Context, prev, cur []knowledge.Offer, prevAt time.Time, f Filter) (map[string]catalog.Point, error) {
	window := time.Duration(d.opt.TrendDays) * 24 * time.Hour
	out := map[string]catalog.Point{}
	for _, c := range catalog.Diff(prev, cur, f.Thresholds()).Of(catalog.KindNew) {
		pts, err := d.cat.History(ctx, c.Key, prevAt.Add(-window), prevAt)
		if err != nil {
			return nil, err
		}
		if len(pts) > 0 {
			out[c.Key] = pts[len(pts)-1]
		}
	}
	return out, nil
}
