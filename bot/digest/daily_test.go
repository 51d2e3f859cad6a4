package digest

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
	"github.com/slack-go/slack"

	"github.com/gpubot/gpubot/bot/bottest"
	"github.com/gpubot/gpubot/bot/schedule"
	"github.com/gpubot/gpubot/bot/slackpost"
	"github.com/gpubot/gpubot/bot/subscribe"
	"github.com/gpubot/gpubot/knowledge"
	"github.com/gpubot/gpubot/knowledge/catalog"
)

// source is a catalogue source whose offers the test sets.
type source struct {
	mu     sync.Mutex
	offers []knowledge.Offer
}

func (s *source) Name() string { return "team-file" }

func (s *source) Fetch(context.Context, time.Time) (*catalog.Batch, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return &catalog.Batch{Offers: append([]knowledge.Offer(nil), s.offers...), Ref: "test"}, nil
}

func (s *source) set(os ...knowledge.Offer) {
	s.mu.Lock()
	s.offers = os
	s.mu.Unlock()
}

type dailyEnv struct {
	rdb   *redis.Client
	mini  *miniredis.Miniredis
	src   *source
	cat   *catalog.Catalog
	daily *Daily
	loc   *time.Location
}

func newDailyEnv(t *testing.T) *dailyEnv {
	t.Helper()
	m := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: m.Addr()})
	t.Cleanup(func() { rdb.Close() })
	src := &source{}
	kb := knowledge.MustShipped()
	cat := catalog.New(rdb, catalog.Options{Sources: []catalog.Source{src}, Base: kb, Fallback: kb.Offers})
	loc := shanghai(t)
	return &dailyEnv{rdb: rdb, mini: m, src: src, cat: cat, loc: loc,
		daily: NewDaily(cat, rdb, Options{Location: loc, KB: kb}, DailyOptions{})}
}

func (e *dailyEnv) refresh(t *testing.T, at time.Time) *catalog.Report {
	t.Helper()
	rep, err := e.daily.Refresh(context.Background(), at)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func rtx4090(price float64) knowledge.Offer {
	return offer("team/autodl/rtx4090", "autodl", "rtx4090", price, knowledge.CNY)
}

func h100(price float64) knowledge.Offer {
	return offer("team/vastai/h100-sxm", "vastai", "h100-sxm", price, knowledge.USD)
}

func TestPreviewShowsAChangeFromTheSecondRefreshOn(t *testing.T) {
	e := newDailyEnv(t)
	ctx := context.Background()
	t0 := time.Date(2026, 10, 9, 8, 0, 0, 0, e.loc)
	e.src.set(rtx4090(1.98), h100(1.45))
	e.refresh(t, t0)
	if _, _, _, ok, _ := e.daily.Since(ctx, catalog.DefaultThresholds()); ok {
		t.Fatal("a baseline exists after the first refresh; there is nothing to compare with yet")
	}
	e.src.set(rtx4090(1.78), h100(1.45))
	rep := e.refresh(t, t0.Add(4*time.Hour))
	if len(rep.Diff.Of(catalog.KindPriceDown)) != 1 {
		t.Fatalf("refresh diff = %+v, want the 4090 drop", rep.Diff)
	}
	d, err := e.daily.Preview(ctx, t0.Add(5*time.Hour), Filter{Lang: "en"})
	if err != nil {
		t.Fatal(err)
	}
	text, _ := d.Render()
	if !strings.Contains(text, "¥1.98 → ¥1.78/card-h (−10.1%)") {
		t.Errorf("preview lacks the change with its percentage:\n%s", text)
	}
	name, _, diff, ok, err := e.daily.Since(ctx, catalog.DefaultThresholds())
	if err != nil || !ok || name != "daily:start" || len(diff.Changes) != 1 {
		t.Errorf("Since = %s, %v, %v, %+v; want the start baseline and one change", name, ok, err, diff.Changes)
	}
}

func slotOf(sub subscribe.Sub, at time.Time, lastPosted string) schedule.Slot {
	return schedule.Slot{Sub: sub, At: at, Now: at, Period: at.Format(time.DateOnly), LastPosted: lastPosted}
}

func TestComposeComparesWithTheChannelsLastPost(t *testing.T) {
	e := newDailyEnv(t)
	ctx := context.Background()
	day1 := time.Date(2026, 10, 9, 9, 30, 0, 0, e.loc)
	day2, day3 := day1.AddDate(0, 0, 1), day1.AddDate(0, 0, 2)
	loud := subscribe.Sub{Team: "T1", Channel: "CLOUD", Topic: subscribe.Prices, Lang: "en"}
	quiet := subscribe.Sub{Team: "T1", Channel: "CQUIET", Topic: subscribe.Prices, Lang: "en", Quiet: true, Threshold: 0.05}

	e.src.set(rtx4090(1.98), h100(1.45))
	e.refresh(t, day1.Add(-time.Hour))
	first, err := e.daily.Compose(ctx, slotOf(loud, day1, ""))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(first.Text, "There is no earlier catalogue") {
		t.Errorf("first post:\n%s", first.Text)
	}

	// Day 2: the 4090 drops 3 %: the loud channel hears it, the quiet one
	// (threshold 5 %) hears nothing.
	e.src.set(rtx4090(1.92), h100(1.45))
	e.refresh(t, day2.Add(-time.Hour))
	p, err := e.daily.Compose(ctx, slotOf(loud, day2, day1.Format(time.DateOnly)))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(p.Text, "¥1.98 → ¥1.92/card-h (−3%)") || p.File == nil {
		t.Errorf("day 2 loud post (chart %v):\n%s", p.File != nil, p.Text)
	}
	if p, err := e.daily.Compose(ctx, slotOf(quiet, day2, day1.Format(time.DateOnly))); err != nil || p != nil {
		t.Errorf("day 2 quiet post = %v, %v; want nothing", p, err)
	}

	// Day 3: another 3 %. The quiet channel's last post was day 1, so it
	// compares with day 1: 1.98 → 1.86 is 6 %, over its threshold.
	e.src.set(rtx4090(1.86), h100(1.45))
	e.refresh(t, day3.Add(-time.Hour))
	p, err = e.daily.Compose(ctx, slotOf(quiet, day3, day1.Format(time.DateOnly)))
	if err != nil {
		t.Fatal(err)
	}
	if p == nil || !strings.Contains(p.Text, "¥1.98 → ¥1.86/card-h (−6.1%)") {
		t.Errorf("day 3 quiet post:\n%v", p)
	}
	// A channel with no post yet compares with the day before.
	p, err = e.daily.Compose(ctx, slotOf(loud, day3, ""))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(p.Text, "¥1.92 → ¥1.86/card-h (−3.1%)") {
		t.Errorf("day 3 post with no last post:\n%s", p.Text)
	}
	// Later on day 3 the catalogue moves again; the day's posts do not.
	e.src.set(rtx4090(1.50), h100(1.45))
	e.refresh(t, day3.Add(4*time.Hour))
	again, err := e.daily.Compose(ctx, slotOf(loud, day3, ""))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(again.Text, "¥1.92 → ¥1.86/card-h (−3.1%)") || strings.Contains(again.Text, "1.50") {
		t.Errorf("a catch-up post on day 3 does not show the day's frozen catalogue:\n%s", again.Text)
	}
}

func TestQuietDayOneLinerOrSilence(t *testing.T) {
	e := newDailyEnv(t)
	ctx := context.Background()
	day1 := time.Date(2026, 10, 9, 9, 30, 0, 0, e.loc)
	e.src.set(rtx4090(1.98))
	e.refresh(t, day1.Add(-time.Hour))
	if err := e.daily.Prepare(ctx, day1, day1.Format(time.DateOnly)); err != nil {
		t.Fatal(err)
	}
	day2 := day1.AddDate(0, 0, 1)
	e.refresh(t, day2.Add(-time.Hour))
	loud := subscribe.Sub{Team: "T1", Channel: "C1", Topic: subscribe.Prices, Lang: "zh"}
	p, err := e.daily.Compose(ctx, slotOf(loud, day2, day1.Format(time.DateOnly)))
	if err != nil {
		t.Fatal(err)
	}
	if p == nil || p.File != nil || !strings.Contains(p.Text, "以来没有 1% 以上的变化") || strings.Contains(p.Text, "\n") {
		t.Errorf("quiet day, loud channel: %+v", p)
	}
	loud.Quiet = true
	if p, err := e.daily.Compose(ctx, slotOf(loud, day2, day1.Format(time.DateOnly))); err != nil || p != nil {
		t.Errorf("quiet day, quiet channel: %+v, %v; want silence", p, err)
	}
}

func TestPrepareDropsOldDayBaselines(t *testing.T) {
	e := newDailyEnv(t)
	ctx := context.Background()
	e.src.set(rtx4090(1.98))
	day := time.Date(2026, 10, 1, 9, 30, 0, 0, e.loc)
	e.refresh(t, day.Add(-time.Hour))
	for i := range 20 {
		d := day.AddDate(0, 0, i)
		if err := e.daily.Prepare(ctx, d, d.Format(time.DateOnly)); err != nil {
			t.Fatal(err)
		}
	}
	e.mini.FastForward(time.Second)
	days, _ := e.rdb.ZRange(ctx, "gpubot:digest:days", 0, -1).Result()
	if len(days) != 15 || days[0] != "2026-10-06" {
		t.Errorf("day baselines kept: %v; want the last 15 (2026-10-06 on)", days)
	}
	if _, _, ok, _ := e.cat.Baseline(ctx, "daily:2026-10-01"); ok {
		t.Error("the baseline of 1 October outlived its retention")
	}
}

// The daily post through the scheduler and a fake Slack: one message with
// the change, one chart.
func TestDailyPostThroughTheScheduler(t *testing.T) {
	e := newDailyEnv(t)
	ctx := context.Background()
	fs := bottest.NewSlack(t)
	poster := slackpost.New(slack.New("xoxb-test", slack.OptionAPIURL(fs.APIURL())), e.rdb, slackpost.Options{Pace: -1})
	subs := subscribe.New(e.rdb, subscribe.Options{})
	day1 := time.Date(2026, 10, 9, 9, 30, 0, 0, e.loc)
	if err := subs.Put(ctx, subscribe.Sub{Team: "T1", Channel: "C1", Topic: subscribe.Prices, Lang: "en", CreatedAt: day1.AddDate(0, 0, -1)}); err != nil {
		t.Fatal(err)
	}
	sched, err := schedule.Daily("09:30", e.loc)
	if err != nil {
		t.Fatal(err)
	}
	now := day1.Add(time.Minute)
	s := schedule.New(e.rdb, func() time.Time { return now }, schedule.Options{Location: e.loc, Poster: poster, Subs: subs,
		Deliveries: []schedule.Delivery{e.daily.Delivery(sched)}})
	e.src.set(rtx4090(1.98), h100(1.45))
	e.refresh(t, day1.Add(-time.Hour))
	if err := s.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	e.src.set(rtx4090(1.78), h100(1.45))
	e.refresh(t, day1.Add(20*time.Hour))
	now = day1.AddDate(0, 0, 1).Add(time.Minute)
	if err := s.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	s.Tick(ctx)
	msgs := fs.Messages("C1")
	if len(msgs) != 2 || !strings.Contains(msgs[1].Text, "¥1.98 → ¥1.78/card-h (−10.1%)") {
		t.Fatalf("messages in C1: %+v", msgs)
	}
	if files := fs.Files("C1"); len(files) != 2 || files[1].Name != "gpu-prices-2026-10-10.png" {
		t.Errorf("charts in C1: %+v", files)
	}
	blocks := fs.Calls("chat.postMessage")[1].Form.Get("blocks")
	if !strings.Contains(blocks, `"type":"header"`) {
		t.Errorf("the post has no Block Kit header: %s", blocks)
	}
}
